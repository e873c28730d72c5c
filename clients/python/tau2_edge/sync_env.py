"""The synchronous environment: a ``gymnasium.Env`` (text observation and action spaces) when gymnasium is
installed, the same methods without it. Calls run on the package's background loop, so they work inside a
running event loop too (a Jupyter notebook)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

from . import loop
from .env import Action, AsyncTau2EdgeEnv, Info, StepResult

try:
    import gymnasium

    from .spaces import MAX_ACTION_CHARS, MAX_OBSERVATION_CHARS, FreeText

    HAS_GYMNASIUM = True
except ImportError:
    HAS_GYMNASIUM = False

if TYPE_CHECKING or HAS_GYMNASIUM:
    _EnvBase = gymnasium.Env[str, Action]
else:
    _EnvBase = object


class Tau2EdgeEnv(_EnvBase):
    """One τ²-bench episode at a time on one OpenEnv session (see ``AsyncTau2EdgeEnv`` for the arguments)."""

    metadata: Dict[str, Any] = {"render_modes": []}

    def __init__(self, base_url: str, api_key: str, domain: str, task_id: str, **kwargs: Any) -> None:
        self._env = AsyncTau2EdgeEnv(base_url, api_key, domain, task_id, **kwargs)
        if HAS_GYMNASIUM:
            self.observation_space = FreeText(MAX_OBSERVATION_CHARS)
            self.action_space = FreeText(MAX_ACTION_CHARS)

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[str, Info]:
        if HAS_GYMNASIUM:
            super().reset(seed=seed)  # seeds self.np_random, as gymnasium asks
        return loop.run(self._env.reset(seed=seed, options=options))

    def step(self, action: Action) -> StepResult:
        return loop.run(self._env.step(action))

    def state(self) -> Dict[str, Any]:
        return loop.run(self._env.state())

    def close(self) -> None:
        loop.run(self._env.close())


class AgentGymEnv(Tau2EdgeEnv):
    """tau2.gym's AgentGymEnv signature; the Worker and key come from TAU2_EDGE_URL and TAU2_EDGE_API_KEY."""

    def __init__(
        self,
        domain: str,
        task_id: str,
        max_steps: int = 100,
        solo_mode: bool = False,
        user_llm: Optional[str] = None,
        user_llm_args: Optional[Dict[str, Any]] = None,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
    ) -> None:
        super().__init__(
            base_url or os.environ["TAU2_EDGE_URL"],
            api_key or os.environ["TAU2_EDGE_API_KEY"],
            domain,
            task_id,
            max_steps=max_steps,
            solo_mode=solo_mode,
            user_llm=user_llm,
            user_llm_args=user_llm_args,
        )
