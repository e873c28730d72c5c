"""The asynchronous environment over one OpenEnv session, with the reference gym's observations and info
(tau2.gym AgentGymEnv): ``reset(seed, options) -> (obs, info)`` and
``step(action) -> (obs, reward, terminated, truncated, info)``; ``info`` holds ``tools``, ``policy``,
``simulation_run`` and, after a step, ``reward_info`` (JSON text, ``{}`` until the episode is graded)."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Dict, Optional, Tuple, Union

from .errors import ValidationError
from .http import get_json
from .observation import format_observation
from .session import Session

Info = Dict[str, Any]
#: An action string in the reference gym's format (JSON tool call, ``f(a=1)``, or text), or a chat-completions message.
Action = Union[str, Dict[str, Any]]
StepResult = Tuple[str, float, bool, bool, Info]


class AsyncTau2EdgeEnv:
    """One episode at a time on one session; ``reset`` starts the next. ``async with`` closes the session."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        domain: str,
        task_id: str,
        max_steps: int = 100,
        solo_mode: bool = False,
        user_llm: Optional[str] = None,
        user_llm_args: Optional[Dict[str, Any]] = None,
        **episode: Any,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.domain = domain
        self.task_id = task_id
        self._episode: Dict[str, Any] = {"domain": domain, "task_id": task_id, "max_steps": max_steps, "solo": solo_mode, **episode}
        if user_llm is not None:
            self._episode["llm_user"] = user_llm
        if user_llm_args is not None:
            self._episode["llm_args_user"] = user_llm_args
        self._session: Optional[Session] = None
        self._given: Dict[str, Any] = {"tools": [], "policy": None}
        self._episode_id: Optional[str] = None
        self._simulation_run: Optional[Dict[str, Any]] = None
        self._done = False

    async def __aenter__(self) -> "AsyncTau2EdgeEnv":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _open(self) -> Session:
        if self._session is None:
            self._session = await Session.open(self.base_url, self.api_key)
        return self._session

    def _info(self) -> Info:
        return {
            "simulation_run": json.dumps(self._simulation_run or {}, indent=2),
            "tools": self._given["tools"],
            "policy": self._given["policy"],
        }

    def _step_info(self, reward_info: Optional[Dict[str, Any]]) -> Info:
        info = self._info()
        info["reward_info"] = json.dumps(reward_info or {}, indent=2)
        return info

    async def _graded_run(self) -> Optional[Dict[str, Any]]:
        """The episode's simulation once graded (the step API's episode, then its simulation)."""
        episode = await asyncio.to_thread(get_json, self.base_url, f"/v1/episodes/{self._episode_id}", self.api_key)
        if episode.get("simulation_id") is None:
            return None
        return await asyncio.to_thread(get_json, self.base_url, f"/v1/simulations/{episode['simulation_id']}", self.api_key)

    async def reset(
        self,
        seed: Optional[int] = None,
        options: Optional[Dict[str, Any]] = None,
        fork_of: Optional[str] = None,
        at_step: Optional[int] = None,
    ) -> Tuple[str, Info]:
        """Starts the next episode; with ``fork_of`` (an episode id) and ``at_step``, a fork of that episode in
        exactly the state it had at step ``at_step`` (its first ``at_step`` turns), which then goes on as its run's
        configuration says (``options`` may change the models, e.g. ``llm_user``)."""
        if (fork_of is None) != (at_step is None):
            raise ValueError("fork_of and at_step go together")
        if fork_of is None:
            data = {**self._episode, **(options or {})}
        else:
            data = {"fork_of": {"episode_id": fork_of, "at_step": at_step}, **(options or {})}
        if seed is not None:
            data["seed"] = seed
        return await self._reset_with(data)

    async def join(self, episode_id: str) -> Tuple[str, Info]:
        """Plays an episode created before (one of a fork group's, or one whose session was lost)."""
        return await self._reset_with({"episode_id": episode_id})

    async def _reset_with(self, data: Dict[str, Any]) -> Tuple[str, Info]:
        session = await self._open()
        result = await session.reset(**data)
        observation = result["observation"]
        self._episode_id = observation["episode_id"]
        self._given = {"tools": observation.get("tools", []), "policy": observation.get("policy")}
        self._simulation_run = None
        self._done = result["done"]
        return format_observation(observation["messages"]), self._info()

    async def step(self, action: Action) -> StepResult:
        if self._session is None or self._episode_id is None:
            raise RuntimeError("Call reset() first.")
        if self._done:
            return "", 0.0, True, False, self._step_info(None)
        data = {"message": action} if isinstance(action, dict) else {"action": action}
        try:
            result = await self._session.step(data)
        except ValidationError as error:
            if not error.data.get("errors"):
                raise
            # As the reference gym answers an action it cannot take: the reason as the observation, reward 0.
            return error.data["errors"][0]["message"], 0.0, False, False, self._step_info(None)
        self._done = result["done"]
        reward_info = result["observation"].get("reward_info")
        if self._done:
            self._simulation_run = await self._graded_run()
        reward = float(result["reward"]) if result["reward"] is not None else 0.0
        return format_observation(result["observation"]["messages"]), reward, self._done, False, self._step_info(reward_info)

    async def state(self) -> Dict[str, Any]:
        return await (await self._open()).state()

    async def close(self) -> None:
        if self._session is not None:
            session, self._session = self._session, None
            await session.close()

