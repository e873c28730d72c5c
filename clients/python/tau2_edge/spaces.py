"""Gymnasium's spaces of the environment (imported only with gymnasium): observations and actions are text."""

from __future__ import annotations

from typing import Any, Optional

import gymnasium

#: The longest action the server takes (MAX_EPISODE_TEXT), and the longest observation a session carries.
MAX_ACTION_CHARS = 65_536
MAX_OBSERVATION_CHARS = 16 * 2**20

_WORDS = ("hello", "please", "thanks", "which", "order", "user", "task", "help", "done", "check")


class FreeText(gymnasium.spaces.Space[str]):
    """Any string of at most ``max_length`` characters. (``gymnasium.spaces.Text`` holds only the characters
    of a fixed charset; a conversation holds any.) A sample is a few random words."""

    def __init__(self, max_length: int, seed: Optional[int] = None) -> None:
        super().__init__(shape=None, dtype=None, seed=seed)
        self.max_length = max_length

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        count = int(self.np_random.integers(1, 8))
        return " ".join(_WORDS[int(i)] for i in self.np_random.integers(0, len(_WORDS), size=count))

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"FreeText({self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, FreeText) and other.max_length == self.max_length
