"""Many episodes at once: each rollout is a session of its own, ``concurrency`` of them open at a time."""

import asyncio

from .env import AsyncTau2EdgeEnv


async def rollout(env, policy, seed=None, max_actions=200):
    """Plays one episode: ``policy(observation, info)`` (sync or async) gives each action."""
    observation, info = await env.reset(seed=seed)
    total, steps = 0.0, 0
    for steps in range(1, max_actions + 1):
        action = policy(observation, info)
        if asyncio.iscoroutine(action):
            action = await action
        observation, reward, terminated, truncated, info = await env.step(action)
        total += reward
        if terminated or truncated:
            break
    return {"reward": total, "steps": steps, "info": info}


async def rollouts(n, base_url, api_key, domain, task_ids, policy, concurrency=64, **episode):
    """Plays ``n`` episodes of the given tasks (round robin) with ``policy``; results in task order."""
    gate = asyncio.Semaphore(concurrency)

    async def one(i):
        async with gate:
            env = AsyncTau2EdgeEnv(base_url, api_key, domain, task_ids[i % len(task_ids)], **episode)
            try:
                return await rollout(env, policy, seed=i)
            finally:
                await env.close()

    return await asyncio.gather(*(one(i) for i in range(n)))
