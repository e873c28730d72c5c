"""Plays mock create_task_1 with its gold actions through the Gymnasium-style client and prints its reward.

    pip install ./clients/python
    python clients/python/examples/gym_gold.py --base http://127.0.0.1:8787 --api-key KEY
"""

import argparse
import sys

from tau2_edge import Tau2EdgeEnv

# The task's gold action (its evaluation_criteria.actions), then the agent's confirmation to the user.
GOLD = ["create_task(user_id='user_1', title='Important Meeting')", "Your task Important Meeting has been created."]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the Worker's URL")
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--user-llm", default=None, help="the simulated user's model (default: the Worker's)")
    args = parser.parse_args()
    env = Tau2EdgeEnv(args.base, args.api_key, "mock", "create_task_1", user_llm=args.user_llm)
    try:
        observation, info = env.reset(seed=300)
        print(observation)
        reward, terminated = 0.0, False
        for action in GOLD:
            observation, reward, terminated, _truncated, info = env.step(action)
            print(f"> {action}\n{observation}")
            if terminated:
                break
        if not terminated:
            sys.exit("the episode did not end after the gold actions")
        print(f"reward {reward}")
    finally:
        env.close()


if __name__ == "__main__":
    main()
