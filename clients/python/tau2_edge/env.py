"""Gymnasium-style environments over OpenEnv sessions, with the reference gym's observations and info
(tau2.gym AgentGymEnv): ``reset(seed, options) -> (obs, info)`` and
``step(action) -> (obs, reward, terminated, truncated, info)``; ``info`` holds ``tools``, ``policy``,
``simulation_run`` and, after a step, ``reward_info`` (JSON text, ``{}`` until the episode is graded)."""

import asyncio
import json
import os
import urllib.request

from .observation import format_observation
from .session import OpenEnvError, Session


def _get_json(url, api_key):
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {api_key}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


class AsyncTau2EdgeEnv:
    """One episode at a time on one session; ``reset`` starts the next. ``action`` is an action string in the
    reference gym's format (JSON tool call, ``f(a=1)``, or text) or a chat-completions message (a dict)."""

    def __init__(self, base_url, api_key, domain, task_id, max_steps=100, solo_mode=False, user_llm=None, user_llm_args=None, **episode):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.domain = domain
        self.task_id = task_id
        self._episode = {"domain": domain, "task_id": task_id, "max_steps": max_steps, "solo": solo_mode, **episode}
        if user_llm is not None:
            self._episode["llm_user"] = user_llm
        if user_llm_args is not None:
            self._episode["llm_args_user"] = user_llm_args
        self._session = None
        self._given = {"tools": [], "policy": None}
        self._episode_id = None
        self._simulation_run = None
        self._done = False

    async def _open(self):
        if self._session is None:
            self._session = await Session.open(self.base_url, self.api_key)
        return self._session

    def _info(self):
        return {
            "simulation_run": json.dumps(self._simulation_run or {}, indent=2),
            "tools": self._given["tools"],
            "policy": self._given["policy"],
        }

    async def _graded_run(self):
        """The episode's simulation once graded (the step API's episode, then its simulation)."""
        episode = await asyncio.to_thread(_get_json, f"{self.base_url}/v1/episodes/{self._episode_id}", self.api_key)
        if episode.get("simulation_id") is None:
            return None
        return await asyncio.to_thread(_get_json, f"{self.base_url}/v1/simulations/{episode['simulation_id']}", self.api_key)

    async def reset(self, seed=None, options=None):
        session = await self._open()
        data = {**self._episode, **(options or {})}
        if seed is not None:
            data["seed"] = seed
        result = await session.reset(**data)
        observation = result["observation"]
        self._episode_id = observation["episode_id"]
        self._given = {"tools": observation.get("tools", []), "policy": observation.get("policy")}
        self._simulation_run = None
        self._done = result["done"]
        return format_observation(observation["messages"]), self._info()

    async def step(self, action):
        if self._episode_id is None:
            raise RuntimeError("Call reset() first.")
        if self._done:
            info = self._info()
            info["reward_info"] = json.dumps({}, indent=2)
            return "", 0.0, True, False, info
        data = {"message": action} if isinstance(action, dict) else {"action": action}
        try:
            result = await self._session.step(data)
        except OpenEnvError as error:
            if error.code != "VALIDATION_ERROR" or not error.data.get("errors"):
                raise
            # As the reference gym answers an action it cannot take: the reason as the observation, reward 0.
            info = self._info()
            info["reward_info"] = json.dumps({}, indent=2)
            return error.data["errors"][0]["message"], 0.0, False, False, info
        self._done = result["done"]
        reward_info = result["observation"].get("reward_info")
        if self._done:
            self._simulation_run = await self._graded_run()
        info = self._info()
        info["reward_info"] = json.dumps(reward_info or {}, indent=2)
        reward = float(result["reward"]) if result["reward"] is not None else 0.0
        return format_observation(result["observation"]["messages"]), reward, self._done, False, info

    async def state(self):
        return await (await self._open()).state()

    async def close(self):
        if self._session is not None:
            await self._session.close()
            self._session = None


class Tau2EdgeEnv:
    """The synchronous environment (Gymnasium's reset/step), on an event loop of its own."""

    def __init__(self, base_url, api_key, domain, task_id, **kwargs):
        self._loop = asyncio.new_event_loop()
        self._env = AsyncTau2EdgeEnv(base_url, api_key, domain, task_id, **kwargs)

    def reset(self, seed=None, options=None):
        return self._loop.run_until_complete(self._env.reset(seed=seed, options=options))

    def step(self, action):
        return self._loop.run_until_complete(self._env.step(action))

    def state(self):
        return self._loop.run_until_complete(self._env.state())

    def close(self):
        self._loop.run_until_complete(self._env.close())
        self._loop.close()


class AgentGymEnv(Tau2EdgeEnv):
    """tau2.gym's AgentGymEnv signature; the Worker and key come from TAU2_EDGE_URL and TAU2_EDGE_API_KEY."""

    def __init__(self, domain, task_id, max_steps=100, solo_mode=False, user_llm=None, user_llm_args=None, base_url=None, api_key=None):
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
