#!/usr/bin/env python3
"""Receives complib pushes with the Python standard library only.

Checks each POST's Standard Webhooks signature over the raw body (HMAC-SHA256,
constant-time compare, any of several space-separated ``v1,`` signatures, a
timestamp within 5 minutes), then upserts the components by id into a JSON
file, written atomically. A batch re-sent with the same ``webhook-id`` is
acknowledged and not applied again.

    WEBHOOK_SECRET=whsec_... python3 receiver.py --port 8080 --file components.json
"""

from __future__ import annotations

import argparse
import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Mapping, Optional
from urllib.parse import urlsplit

TOLERANCE_SECONDS = 5 * 60
"""How far ``webhook-timestamp`` may be from now, either way (replays, clock drift)."""
MAX_SEEN = 10_000
"""Applied webhook-ids kept: enough for 25 pushes of 100,000 components."""
MAX_BODY_BYTES = 32 * 1024 * 1024
"""A push is at most 250 components; this is far above any real one."""


class DeliveryError(Exception):
    """A delivery the receiver refuses; ``status`` is what it answers (4xx)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def secret_key(secret: str) -> bytes:
    """The HMAC key of a ``whsec_`` secret: the base64 after the prefix, decoded."""
    if not secret.startswith("whsec_"):
        raise ValueError("a signing secret starts with whsec_")
    try:
        key = base64.b64decode(secret[len("whsec_"):], validate=True)
    except binascii.Error as error:
        raise ValueError(f"a signing secret is whsec_ followed by base64: {error}") from None
    if not key:
        raise ValueError("the signing secret is empty")
    return key


def sign(secret: str, webhook_id: str, timestamp: str, body: bytes) -> str:
    """``v1,<base64 HMAC-SHA256 of "id.timestamp.body">``, over the body's exact bytes."""
    signed = f"{webhook_id}.{timestamp}.".encode() + body
    digest = hmac.new(secret_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def verify_signature(
    secret: str,
    headers: Mapping[str, str],
    body: bytes,
    now: Optional[float] = None,
    tolerance: int = TOLERANCE_SECONDS,
) -> str:
    """Checks a delivery's signature over ``body``, the raw bytes as received,
    and returns its ``webhook-id``. Raises ``DeliveryError``: 400 for missing or
    malformed headers, 401 for a stale or future timestamp or no matching
    signature.

    Never pass ``json.dumps(json.loads(body))``: it has other bytes (spaces,
    ``\\u`` escapes, number formats), so the signature would not match.
    """
    webhook_id = headers.get("webhook-id") or ""
    timestamp = headers.get("webhook-timestamp") or ""
    signatures = headers.get("webhook-signature") or ""
    if not (webhook_id and timestamp and signatures):
        raise DeliveryError(400, "missing webhook-id, webhook-timestamp or webhook-signature header")
    # Digits only: int() would also take " 12", "+12" or "1_2", which the sender never signs.
    if not re.fullmatch(r"[0-9]{1,15}", timestamp):
        raise DeliveryError(400, "webhook-timestamp is not unix seconds")
    age = (time.time() if now is None else now) - int(timestamp)
    if age > tolerance:
        raise DeliveryError(401, f"webhook-timestamp is {int(age)} s old (tolerance {tolerance} s)")
    if age < -tolerance:
        raise DeliveryError(401, f"webhook-timestamp is {int(-age)} s in the future (tolerance {tolerance} s)")
    expected = sign(secret, webhook_id, timestamp, body).encode()
    # During a secret rotation complib sends the new and the old signature, space-separated.
    for candidate in signatures.split(" "):
        if candidate.startswith("v1,") and hmac.compare_digest(candidate.encode(), expected):
            return webhook_id
    raise DeliveryError(401, "no matching v1 signature")


def parse_batch(body: bytes) -> list[dict[str, Any]]:
    """Reads ``{"entities": [{"id": "...", ...}, ...]}``; anything else is a 400."""
    try:
        parsed = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise DeliveryError(400, "body is not JSON") from None
    entities = parsed.get("entities") if isinstance(parsed, dict) else None
    if not isinstance(entities, list):
        raise DeliveryError(400, 'body has no "entities" array')
    for i, entity in enumerate(entities):
        if not isinstance(entity, dict) or not isinstance(entity.get("id"), str) or not entity["id"]:
            raise DeliveryError(400, f'entities[{i}] has no string "id"')
    return entities


class JsonStore:
    """Components by id in a JSON file, with the webhook-ids already applied.

    Each batch is one atomic write (temporary file beside it, fsync, rename), so
    a crash leaves the old or the new file, never half of one; entities and
    their webhook-id are recorded together. A lock queues the server's threads.
    """

    def __init__(self, path: str):
        self.path = path
        self._lock = threading.Lock()
        try:
            with open(path, encoding="utf-8") as f:
                self.data = json.load(f)
        except FileNotFoundError:
            self.data = {"components": {}, "seenWebhookIds": []}
        self._seen = set(self.data["seenWebhookIds"])

    def apply(self, webhook_id: str, entities: list[dict[str, Any]]) -> dict[str, Any]:
        with self._lock:
            if webhook_id in self._seen:
                return {"duplicate": True, "upserted": 0}
            components = dict(self.data["components"])
            for entity in entities:
                components[entity["id"]] = entity
            seen = (self.data["seenWebhookIds"] + [webhook_id])[-MAX_SEEN:]
            new = {"components": components, "seenWebhookIds": seen}
            self._write(new)
            # Memory moves on only once the file is on disk: a failed write changes nothing.
            self.data, self._seen = new, set(seen)
            return {"duplicate": False, "upserted": len(entities)}

    def _write(self, data: dict[str, Any]) -> None:
        directory = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(directory, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(self.path)}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, ensure_ascii=False, indent=2)
                f.flush()
                os.fsync(f.fileno())
            os.replace(temp, self.path)
        except BaseException:
            try:
                os.unlink(temp)
            except FileNotFoundError:
                pass
            raise


def make_handler(secret: str, store: JsonStore, path: str = "/hooks/components", log: Callable[[str], None] = lambda line: print(line, flush=True)):
    """The request handler class of a receiver, bound to its secret and store."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            if urlsplit(self.path).path != path:
                return self._reply(404, {"error": f"nothing at {self.path}; pushes go to {path}"})
            try:
                # The raw bytes, exactly as sent: the signature covers these.
                body = self._read_body()
                webhook_id = verify_signature(secret, self.headers, body)
                result = store.apply(webhook_id, parse_batch(body))
            except DeliveryError as error:
                log(f"rejected ({error.status}): {error}")
                return self._reply(error.status, {"error": str(error)})
            except OSError as error:
                log(f"failed: {error}")
                return self._reply(500, {"error": "could not store the batch"})
            log(f"{webhook_id}: " + ("already applied, skipped" if result["duplicate"] else f"upserted {result['upserted']}"))
            self._reply(200, result)

        def do_GET(self) -> None:
            self._reply(405 if urlsplit(self.path).path == path else 404, {"error": "POST only"}, {"allow": "POST"})

        def _read_body(self) -> bytes:
            length = self.headers.get("content-length")
            if length is None or not length.isdigit():
                raise DeliveryError(411, "content-length required")
            if int(length) > MAX_BODY_BYTES:
                raise DeliveryError(413, f"body larger than {MAX_BODY_BYTES} bytes")
            return self.rfile.read(int(length))

        def _reply(self, status: int, body: Any, headers: Optional[dict[str, str]] = None) -> None:
            data = json.dumps(body).encode()
            if status in (411, 413):
                self.close_connection = True  # the body was not read
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # one line per delivery is logged above instead

    return Handler


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Receive complib pushes; WEBHOOK_SECRET holds the connector's signing secret.")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8080")), help="0 picks a free port (default 8080)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--file", default="components.json", help="JSON file the components are upserted into")
    parser.add_argument("--path", default="/hooks/components", help="URL path pushes arrive at")
    args = parser.parse_args(argv)
    # From the environment, not a flag, so the secret stays out of `ps`.
    secret = os.environ.get("WEBHOOK_SECRET", "")
    try:
        secret_key(secret)
    except ValueError as error:
        print(f"WEBHOOK_SECRET: {error}. Set it to the connector's signing secret (whsec_...).", file=sys.stderr)
        return 2
    store = JsonStore(args.file)
    server = ThreadingHTTPServer((args.host, args.port), make_handler(secret, store, args.path))
    print(f"listening on http://{args.host}:{server.server_address[1]}{args.path}, storing into {args.file}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
