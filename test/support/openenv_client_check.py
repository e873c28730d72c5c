"""Plays mock create_task_1 through OpenEnv's own GenericEnvClient (meta-pytorch/OpenEnv, from source) against
a tau2-edge Worker, and prints the StepResults it parsed.

OpenEnv's client modules (env_client, generic_client, client_types, utils) are read from the repository's git
directory unchanged. What this machine cannot import is stood in for: the package __init__ files (the real
ones import the server side and pydantic), the container providers (not used: no container is started), and
`websockets.asyncio.client.connect` for websockets < 13, mapped to the legacy client. The stand-in also adds the
Authorization header, which EnvClient has no parameter for.

With --fork it resets into a fork of a new episode at its agent's first turn (`fork_of`) and plays the fork.

With --mcp it plays the episode through OpenEnv's MCPToolClient instead (list_tools, call_tool, then a text
step), which also needs OpenEnv's env_server/types.py and mcp_types.py: those are pydantic 2 models, so pydantic 2
must be importable (e.g. on PYTHONPATH); env_server's __init__ is stood in for as the package's is.

    /usr/bin/python3 openenv_client_check.py --openenv-repo DIR --base URL --api-key KEY --user-llm MODEL [--mcp | --fork]
"""

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import types

CLIENT_MODULES = ["env_client.py", "generic_client.py", "client_types.py", "utils.py"]
MCP_MODULES = ["mcp_client.py", "env_server/types.py", "env_server/mcp_types.py"]


def load_openenv_client(repo, api_key, mcp=False):
    root = tempfile.mkdtemp(prefix="openenv-client-")
    core = os.path.join(root, "openenv", "core")
    os.makedirs(os.path.join(core, "env_server"))
    open(os.path.join(root, "openenv", "__init__.py"), "w").close()
    open(os.path.join(core, "__init__.py"), "w").close()
    open(os.path.join(core, "env_server", "__init__.py"), "w").close()
    for name in CLIENT_MODULES + (MCP_MODULES if mcp else []):
        source = subprocess.run(["git", "-C", repo, "show", f"HEAD:src/openenv/core/{name}"], check=True, capture_output=True).stdout
        with open(os.path.join(core, name), "wb") as f:
            f.write(source)
    runtime = types.ModuleType("openenv.core.containers.runtime")
    runtime.LocalDockerProvider = runtime.UVProvider = None
    sys.modules["openenv.core.containers"] = types.ModuleType("openenv.core.containers")
    sys.modules["openenv.core.containers.runtime"] = runtime

    import websockets

    try:
        import websockets.asyncio.client as asyncio_client  # websockets >= 13

        connect = asyncio_client.connect
        headers_arg = "additional_headers"
    except ImportError:
        asyncio_client = types.ModuleType("websockets.asyncio.client")
        sys.modules["websockets.asyncio"] = types.ModuleType("websockets.asyncio")
        sys.modules["websockets.asyncio.client"] = asyncio_client
        connect = websockets.connect
        headers_arg = "extra_headers"
    asyncio_client.ClientConnection = object
    asyncio_client.connect = lambda url, **kw: connect(url, **kw, **{headers_arg: {"Authorization": f"Bearer {api_key}"}})

    sys.path.insert(0, root)
    if mcp:
        from openenv.core.mcp_client import MCPToolClient

        return MCPToolClient
    from openenv.core.generic_client import GenericEnvClient

    return GenericEnvClient


def reset_args(user_llm):
    args = {"domain": "mock", "task_id": "create_task_1", "seed": 300}
    return {**args, "llm_user": user_llm} if user_llm else args


async def play(client_class, base, user_llm):
    async with client_class(base_url=f"{base.rstrip('/')}/openenv") as env:
        result = await env.reset(**reset_args(user_llm))
        print("reset", json.dumps({"reward": result.reward, "done": result.done, "roles": [m["role"] for m in result.observation["messages"]]}))
        for action in ["create_task(user_id='user_1', title='Important Meeting')", "Your task Important Meeting has been created."]:
            result = await env.step({"action": action})
            print("step", json.dumps({"reward": result.reward, "done": result.done, "roles": [m["role"] for m in result.observation["messages"]]}))
        print("state", json.dumps(await env.state()))
        try:
            await env.step({"action": "", "unknown": 1})
        except RuntimeError as error:
            print("error", str(error))


async def play_fork(client_class, base, user_llm):
    """Opens an episode, then resets into a fork of it at the agent's first turn and plays the fork to its grade."""
    async with client_class(base_url=f"{base.rstrip('/')}/openenv") as env:
        source = await env.reset(**reset_args(user_llm))
        result = await env.reset(fork_of={"episode_id": source.observation["episode_id"], "at_step": 1})
        same = result.observation["messages"] == source.observation["messages"]
        print("fork", json.dumps({"done": result.done, "step": result.observation["step"], "same_messages": same, "new_episode": result.observation["episode_id"] != source.observation["episode_id"]}))
        for action in ["create_task(user_id='user_1', title='Important Meeting')", "Your task Important Meeting has been created."]:
            result = await env.step({"action": action})
        print("end", json.dumps({"reward": result.reward, "done": result.done}))


async def play_mcp(client_class, base, user_llm):
    async with client_class(base_url=f"{base.rstrip('/')}/openenv") as env:
        result = await env.reset(**reset_args(user_llm))
        # The reset's chat-completions tools make MCPToolClient read it as a ListToolsObservation.
        print("reset", json.dumps({"observation": type(result.observation).__name__, "tool_names": sorted({t.name for t in result.observation.tools}), "done": result.done}))
        tools = await env.list_tools()
        create_task = await env.get_tool("create_task")
        print("tools", json.dumps({"names": [t.name for t in tools], "create_task_required": create_task.input_schema.get("required")}))
        created = await env.call_tool("create_task", user_id="user_1", title="Important Meeting")
        print("call_tool", json.dumps(json.loads(created)))
        result = await env.step("Your task Important Meeting has been created.")
        print("step", json.dumps({"observation": type(result.observation).__name__, "reward": result.reward, "done": result.done}))
        print("state", json.dumps((await env.state()).model_dump()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--openenv-repo", required=True)
    parser.add_argument("--base", required=True)
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--user-llm", default=None)
    parser.add_argument("--mcp", action="store_true")
    parser.add_argument("--fork", action="store_true")
    args = parser.parse_args()
    client_class = load_openenv_client(args.openenv_repo, args.api_key, args.mcp)
    asyncio.run((play_mcp if args.mcp else play_fork if args.fork else play)(client_class, args.base, args.user_llm))


if __name__ == "__main__":
    main()
