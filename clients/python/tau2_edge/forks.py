"""Groups of continuations of one episode (GRPO-style rollout groups): ``n`` forks of an episode in the state it
had at step ``at_step``, opened in one call (``POST /v1/episodes/batch`` with ``fork_of``), each then played on a
session of its own."""

from __future__ import annotations

import asyncio
from typing import Any, List, Tuple

from .env import AsyncTau2EdgeEnv, Info
from .http import post_json

#: A fork of the group: its environment (joined, ready to step), its first observation and info.
Fork = Tuple[AsyncTau2EdgeEnv, str, Info]


async def fork_group(base_url: str, api_key: str, domain: str, task_id: str, episode_id: str, at_step: int, n: int, **fork: Any) -> List[Fork]:
    """Opens ``n`` forks of ``episode_id`` at step ``at_step`` (``fork`` may name other models, e.g. ``llm_user``,
    or a ``seed``) and joins each; close the environments (or use each in ``async with``) when done."""
    server = base_url.rstrip("/")
    body = {"fork_of": {"episode_id": episode_id, "at_step": at_step}, "n": n, **fork}
    created = await asyncio.to_thread(post_json, server, "/v1/episodes/batch", api_key, body)
    envs = [AsyncTau2EdgeEnv(server, api_key, domain, task_id) for _ in created["episode_ids"]]
    joined = await asyncio.gather(*(env.join(episode) for env, episode in zip(envs, created["episode_ids"])))
    return [(env, observation, info) for env, (observation, info) in zip(envs, joined)]
