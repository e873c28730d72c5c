"""Many episodes at once: each rollout is a session of its own, ``concurrency`` of them open at a time."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Union

from . import loop
from .env import Action, AsyncTau2EdgeEnv, Info

#: Gives the next action from the observation and info; sync or async.
Policy = Callable[[str, Info], Union[Action, Awaitable[Action]]]
Rollout = Dict[str, Any]


async def rollout(env: AsyncTau2EdgeEnv, policy: Policy, seed: Optional[int] = None, max_actions: int = 200) -> Rollout:
    """Plays one episode: ``policy(observation, info)`` gives each action. Answers ``{"reward", "steps", "info"}``."""
    observation, info = await env.reset(seed=seed)
    total, steps = 0.0, 0
    for steps in range(1, max_actions + 1):
        action = policy(observation, info)
        if asyncio.iscoroutine(action):
            action = await action
        observation, reward, terminated, truncated, info = await env.step(action)  # type: ignore[arg-type]
        total += reward
        if terminated or truncated:
            break
    return {"reward": total, "steps": steps, "info": info}


async def rollouts(
    n: int, base_url: str, api_key: str, domain: str, task_ids: Sequence[str], policy: Policy, concurrency: int = 64, **episode: Any
) -> List[Rollout]:
    """Plays ``n`` episodes of the given tasks (round robin, episode ``i`` with seed ``i``) with ``policy``;
    results in episode order."""
    gate = asyncio.Semaphore(concurrency)

    async def one(i: int) -> Rollout:
        async with gate:
            async with AsyncTau2EdgeEnv(base_url, api_key, domain, task_ids[i % len(task_ids)], **episode) as env:
                return await rollout(env, policy, seed=i)

    return list(await asyncio.gather(*(one(i) for i in range(n))))


def play_rollouts(n: int, base_url: str, api_key: str, domain: str, task_ids: Sequence[str], policy: Policy, concurrency: int = 64, **episode: Any) -> List[Rollout]:
    """``rollouts`` for synchronous code, a notebook's included."""
    return loop.run(rollouts(n, base_url, api_key, domain, task_ids, policy, concurrency, **episode))
