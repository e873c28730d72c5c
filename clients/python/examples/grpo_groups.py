"""Collects GRPO groups: each task's episodes are played at once through gymnasium's vector interface, and each
episode's advantage is its reward against its group's (reward - mean) / std, as GRPO trainers weigh completions.

The policy takes the batch of observations and answers a batch of actions, where a trainer calls its model's
generation; here it is scripted: even episodes play the task's gold action, odd ones a wrong title.

    pip install './clients/python[gymnasium]'
    python clients/python/examples/grpo_groups.py --base http://127.0.0.1:8787 --api-key KEY --group 4
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import List, Sequence

import gymnasium
from gymnasium.vector import AutoresetMode

import tau2_edge  # noqa: F401  (registers tau2_edge/Tau2Edge-v0)

CONFIRMATION = "Your task has been created."


def scripted_policy(observations: Sequence[str]) -> List[str]:
    """A stand-in for a model: the i-th episode's next action from its observation."""
    actions = []
    for i, observation in enumerate(observations):
        title = "Important Meeting" if i % 2 == 0 else "Unimportant Meeting"
        actions.append(f"create_task(user_id='user_1', title='{title}')" if observation.startswith("user:") else CONFIRMATION)
    return actions


def collect_group(base_url: str, api_key: str, task_id: str, group: int, seed: int, max_turns: int = 20) -> List[float]:
    """Plays ``group`` episodes of one task at once; answers each episode's reward."""
    envs = gymnasium.make_vec(
        "tau2_edge/Tau2Edge-v0", num_envs=group, vectorization_mode="vector_entry_point",
        base_url=base_url, api_key=api_key, domain="mock", task_id=task_id, autoreset_mode=AutoresetMode.DISABLED,
    )
    try:
        observations, _infos = envs.reset(seed=seed)
        rewards = [0.0] * group
        ended = [False] * group
        for _ in range(max_turns):
            observations, step_rewards, terminated, truncated, _infos = envs.step(scripted_policy(observations))
            for i in range(group):
                if not ended[i]:
                    rewards[i] += float(step_rewards[i])
                    ended[i] = bool(terminated[i] or truncated[i])
            if all(ended):
                break
        return rewards
    finally:
        envs.close()


def advantages(rewards: Sequence[float]) -> List[float]:
    """GRPO's group-relative advantages: each reward against the group's mean, in units of its spread."""
    mean = statistics.fmean(rewards)
    spread = statistics.pstdev(rewards)
    return [(reward - mean) / (spread + 1e-4) for reward in rewards]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the Worker's URL")
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--task", action="append", help="a mock task (repeatable; default create_task_1)")
    parser.add_argument("--group", type=int, default=4, help="episodes per task")
    args = parser.parse_args()
    for step, task_id in enumerate(args.task or ["create_task_1"]):
        rewards = collect_group(args.base, args.api_key, task_id, args.group, seed=step * args.group)
        print(json.dumps({"task": task_id, "rewards": rewards, "advantages": [round(a, 3) for a in advantages(rewards)]}))


if __name__ == "__main__":
    main()
