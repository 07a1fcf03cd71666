"""Drives caveman-mcp with the official MCP Python SDK over stdio, as a
host would: initialize, list the tools, compress a JSON payload, retrieve
its handle byte-exact, read stats, round-trip TOON, and see an unknown
handle fail with isError. Exits non-zero on any mismatch.

Usage: python mcp_client.py SERVER_BINARY PAYLOAD_FILE
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def attr(obj, snake: str, camel: str):
    """A field under either spelling (SDK versions differ)."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


def is_error(res) -> bool:
    return bool(attr(res, "is_error", "isError"))


async def main(server: str, payload_path: str) -> None:
    payload = open(payload_path, encoding="utf-8").read()
    params = StdioServerParameters(command=server, args=[], env={"CAVEMAN_MCP_EPHEMERAL": "1"})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert attr(init, "server_info", "serverInfo").name == "caveman", init
            version = attr(init, "protocol_version", "protocolVersion")
            assert version == "2024-11-05", version

            tools = await session.list_tools()
            names = [t.name for t in tools.tools]
            assert names == [
                "caveman_compress",
                "caveman_retrieve",
                "caveman_stats",
                "caveman_toon_encode",
                "caveman_toon_decode",
            ], names

            res = await session.call_tool("caveman_compress", {"input": payload})
            assert not is_error(res), res
            out = json.loads(res.content[0].text)
            handle = out["recovery_handle"]
            assert handle and handle.startswith("ccr_"), out
            assert out["tokens_after"] < out["tokens_before"], out

            res = await session.call_tool("caveman_retrieve", {"recovery_handle": handle})
            assert not is_error(res), res
            assert res.content[0].text == payload, "retrieve is not byte-exact"

            res = await session.call_tool("caveman_stats", {})
            stats = json.loads(res.content[0].text)
            assert stats["requests"] == 1, stats
            assert stats["tokens_before"] == out["tokens_before"], stats

            table = json.dumps({"rows": [{"id": i, "name": "n%d" % i} for i in range(5)]})
            res = await session.call_tool("caveman_toon_encode", {"input": table})
            enc = json.loads(res.content[0].text)
            assert enc["encoded"] is True, enc
            res = await session.call_tool("caveman_toon_decode", {"input": enc["output"]})
            assert json.loads(res.content[0].text) == json.loads(table)

            res = await session.call_tool(
                "caveman_retrieve", {"recovery_handle": "ccr_00000000000000000000000000000000"}
            )
            assert is_error(res), res
            assert json.loads(res.content[0].text)["error"] == "cave_unknown_handle"
    print("mcp python client: all checks passed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
