"""Collects a GRPO group from a shared prefix: one episode is played up to a step, then ``--group`` forks of it
continue from there at once (one call opens them all; the prefix is not replayed), and each continuation's
advantage is its reward against the group's, (reward - mean) / std.

The policy is scripted where a trainer calls its model: even forks play the task's gold action, odd ones a wrong
title.

    pip install ./clients/python
    python clients/python/examples/fork_groups.py --base http://127.0.0.1:8787 --api-key KEY --group 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from typing import List, Sequence

from tau2_edge import AsyncTau2EdgeEnv, fork_group

CONFIRMATION = "Your task has been created."


async def play(env: AsyncTau2EdgeEnv, title: str, max_turns: int = 20) -> float:
    """Plays a fork to its end: the create_task call with ``title``, then the confirmation."""
    try:
        for action in [f"create_task(user_id='user_1', title='{title}')", *[CONFIRMATION] * max_turns]:
            _, reward, terminated, truncated, _ = await env.step(action)
            if terminated or truncated:
                return reward
        return 0.0
    finally:
        await env.close()


def advantages(rewards: Sequence[float]) -> List[float]:
    """GRPO's group-relative advantages: each reward against the group's mean, in units of its spread."""
    mean = statistics.fmean(rewards)
    spread = statistics.pstdev(rewards)
    return [(reward - mean) / (spread + 1e-4) for reward in rewards]


async def collect(base_url: str, api_key: str, group: int) -> List[float]:
    """Opens a mock create_task_1 episode (its step 0: the user's request), forks it ``group`` times at step 1."""
    async with AsyncTau2EdgeEnv(base_url, api_key, "mock", "create_task_1") as source:
        await source.reset()
        episode_id = (await source.state())["episode_id"]
        forks = await fork_group(base_url, api_key, "mock", "create_task_1", episode_id, 1, group)
    titles = ["Important Meeting" if i % 2 == 0 else "Unimportant Meeting" for i in range(group)]
    return list(await asyncio.gather(*(play(env, title) for (env, _, _), title in zip(forks, titles))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the Worker's URL")
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--group", type=int, default=4, help="forks in the group")
    args = parser.parse_args()
    rewards = asyncio.run(collect(args.base, args.api_key, args.group))
    print(json.dumps({"rewards": rewards, "advantages": [round(a, 3) for a in advantages(rewards)]}))


if __name__ == "__main__":
    main()
