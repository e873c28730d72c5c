"""Gymnasium's vector interface over N sessions, stepped at once on the package's background loop
(``gymnasium.make_vec("tau2_edge/Tau2Edge-v0", num_envs=N, ...)``). Needs gymnasium."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from . import loop
from .env import Action, AsyncTau2EdgeEnv, StepResult
from .spaces import MAX_ACTION_CHARS, MAX_OBSERVATION_CHARS, FreeText

Seeds = Union[int, Sequence[Optional[int]], None]

class Tau2EdgeVectorEnv(gymnasium.vector.VectorEnv[Tuple[str, ...], Sequence[Action], Any]):
    """``num_envs`` episodes at once, a session each, of ``task_id`` (one task, or tasks taken round robin).
    Observations are a tuple of strings. With ``autoreset_mode`` NEXT_STEP (gymnasium's default) an episode that
    ended is reset by the next step, whose action for it is ignored; with DISABLED it answers ``("", 0.0, True,
    False, info)`` until ``reset()``, which suits playing each episode once (a group of a task's episodes)."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        domain: str,
        task_id: Union[str, Sequence[str]],
        num_envs: int = 1,
        autoreset_mode: AutoresetMode = AutoresetMode.NEXT_STEP,
        **episode: Any,
    ) -> None:
        task_ids = [task_id] if isinstance(task_id, str) else list(task_id)
        if num_envs < 1 or not task_ids:
            raise ValueError("num_envs must be at least 1, with at least one task_id")
        if autoreset_mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED):
            raise ValueError(f"autoreset_mode {autoreset_mode} is not offered: NEXT_STEP or DISABLED")
        self.metadata = {"autoreset_mode": autoreset_mode, "render_modes": []}
        self.num_envs = num_envs
        self.envs = [AsyncTau2EdgeEnv(base_url, api_key, domain, task_ids[i % len(task_ids)], **episode) for i in range(num_envs)]
        self.single_observation_space = FreeText(MAX_OBSERVATION_CHARS)
        self.single_action_space = FreeText(MAX_ACTION_CHARS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)

    def reset(self, *, seed: Seeds = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Tuple[str, ...], Dict[str, Any]]:
        """``seed`` is one seed (each episode then has ``seed + i``) or a seed per episode."""
        if seed is None or isinstance(seed, int):
            super().reset(seed=seed)
            seeds: List[Optional[int]] = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        results = loop.run(loop.gather(*(env.reset(seed=s, options=options) for env, s in zip(self.envs, seeds))))
        self._autoreset[:] = False
        infos: Dict[str, Any] = {}
        for i, (_, info) in enumerate(results):
            infos = self._add_info(infos, info, i)
        return tuple(observation for observation, _ in results), infos

    async def _step_one(self, i: int, action: Action) -> StepResult:
        if self._autoreset[i]:
            observation, info = await self.envs[i].reset()
            return observation, 0.0, False, False, info
        return await self.envs[i].step(action)

    def step(self, actions: Sequence[Action]) -> Tuple[Tuple[str, ...], Any, Any, Any, Dict[str, Any]]:
        if len(actions) != self.num_envs:
            raise ValueError(f"{len(actions)} actions for {self.num_envs} environments")
        results = loop.run(loop.gather(*(self._step_one(i, action) for i, action in enumerate(actions))))
        rewards = np.array([r[1] for r in results], dtype=np.float64)
        terminations = np.array([r[2] for r in results], dtype=np.bool_)
        truncations = np.array([r[3] for r in results], dtype=np.bool_)
        infos: Dict[str, Any] = {}
        for i, result in enumerate(results):
            infos = self._add_info(infos, result[4], i)
        if self.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP:
            self._autoreset = terminations | truncations
        return tuple(r[0] for r in results), rewards, terminations, truncations, infos

    def close_extras(self, **kwargs: Any) -> None:
        loop.run(loop.gather(*(env.close() for env in self.envs)))
