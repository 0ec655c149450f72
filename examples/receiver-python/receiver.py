#!/usr/bin/env python3
"""Receives complib pushes with the Python standard library only.

Checks each POST's Standard Webhooks signature over the raw body (HMAC-SHA256,
constant-time compare, any of several space-separated ``v1,`` signatures, a
timestamp within 5 minutes), then upserts the components by id into a JSON
file, written atomically. A batch re-sent with the same ``webhook-id`` is
acknowledged and not applied again.

With ``--mirror`` (or ``MIRROR=1``) it mirrors the library, deletions included:
once every batch of a push (``complib-batch: 1/n`` .. ``n/n`` of one
``complib-run-id``) has been applied, it removes what the push did not carry.

    WEBHOOK_SECRET=whsec_... python3 receiver.py --port 8080 --file components.json [--mirror]
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
MAX_RUNS = 4
"""Incomplete runs kept in mirror mode: a run that lost a batch never completes, the next one supersedes it."""
RUN_ID = re.compile(r"run_[0-9A-HJKMNP-TV-Z]{26}")
BATCH = re.compile(r"([1-9][0-9]{0,8})/([1-9][0-9]{0,8})")


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


def read_run_position(headers: Mapping[str, str]) -> Optional[tuple[str, int, int]]:
    """``(run_id, batch, batches)`` from ``complib-run-id`` and ``complib-batch: i/n``,
    or ``None`` without them (the delivery is a plain upsert). One without the
    other, or a malformed value, is a 400.

    These headers are not covered by the signature: read them only from a
    delivery whose signature verified.
    """
    run_id = headers.get("complib-run-id")
    batch = headers.get("complib-batch")
    if run_id is None and batch is None:
        return None
    if run_id is None or batch is None:
        raise DeliveryError(400, "complib-run-id and complib-batch come together")
    if not RUN_ID.fullmatch(run_id):
        raise DeliveryError(400, f"complib-run-id is not a run id: {run_id[:40]}")
    match = BATCH.fullmatch(batch)
    if not match or int(match[1]) > int(match[2]):
        raise DeliveryError(400, f"complib-batch is not <i>/<n> with 1 <= i <= n: {batch[:40]}")
    return run_id, int(match[1]), int(match[2])


def apply_mirrored(components: dict[str, Any], state: dict[str, Any], position: tuple[str, int, int], entities: list[dict[str, Any]]):
    """Applies one batch of a run, mirror-style; returns ``None`` for a batch
    number already applied, else ``(components, state, outcome)``, new objects.

    - A run older than the last completed one (by run id: ULIDs sort by
      creation time) is stale: nothing changes, so a late batch of an old run
      neither brings back what a newer run removed nor overwrites newer data.
    - Otherwise the entities are upserted and the batch number is recorded
      with its ids.
    - Once every batch 1..n of the run is recorded, every component that
      neither this run nor a newer one (already under way) carried is removed,
      and the run becomes the last completed one.
    """
    run_id, batch, batches = position
    last = state["lastCompletedRunId"]
    if last is not None and run_id <= last:
        return components, state, {"stale": True, "complete": False, "removed": 0}
    record = state["runs"].get(run_id, {"batches": batches, "applied": {}})
    if record["batches"] != batches:
        raise DeliveryError(400, f"complib-batch says {batches} batches; earlier batches of {run_id} said {record['batches']}")
    if str(batch) in record["applied"]:
        return None

    components = dict(components)
    for entity in entities:
        components[entity["id"]] = entity
    runs = {**state["runs"], run_id: {"batches": batches, "applied": {**record["applied"], str(batch): [e["id"] for e in entities]}}}
    if len(runs[run_id]["applied"]) < batches:
        # Keep the newest runs only: the file stays bounded when runs keep losing batches.
        kept = sorted(runs)[-MAX_RUNS:]
        return components, {**state, "runs": {r: runs[r] for r in kept}}, {"stale": False, "complete": False, "removed": 0}

    # Complete. A newer run already under way read the library later: what it carried stays.
    newer = [r for r in runs if r > run_id]
    keep = {i for r in [run_id, *newer] for ids in runs[r]["applied"].values() for i in ids}
    removed = [i for i in components if i not in keep]
    for i in removed:
        del components[i]
    state = {"runs": {r: runs[r] for r in newer}, "lastCompletedRunId": run_id}
    return components, state, {"stale": False, "complete": True, "removed": len(removed)}


class JsonStore:
    """Components by id in a JSON file, with the webhook-ids already applied.

    Each batch is one atomic write (temporary file beside it, fsync, rename), so
    a crash leaves the old or the new file, never half of one; entities and
    their webhook-id (and, in mirror mode, the runs' applied batches) are
    recorded together. A lock queues the server's threads.
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

    def apply(self, webhook_id: str, entities: list[dict[str, Any]], run: Optional[tuple[str, int, int]] = None) -> dict[str, Any]:
        """Upserts a batch by id unless its webhook-id was applied already. With
        ``run`` (mirror mode: run id, batch, batches) also records the batch in
        its run, and once the run is complete removes what it did not carry."""
        with self._lock:
            if webhook_id in self._seen:
                return {"duplicate": True, "upserted": 0}
            seen = (self.data["seenWebhookIds"] + [webhook_id])[-MAX_SEEN:]
            if run is not None:
                mirrored = apply_mirrored(self.data["components"], self.data.get("mirror") or {"runs": {}, "lastCompletedRunId": None}, run, entities)
                if mirrored is None:
                    # The batch number was applied under another webhook-id (the seen list rolled over).
                    return {"duplicate": True, "upserted": 0}
                components, mirror, outcome = mirrored
                new = {**self.data, "components": components, "seenWebhookIds": seen, "mirror": mirror}
                result = {"duplicate": False, "upserted": 0 if outcome["stale"] else len(entities), "mirror": outcome}
            else:
                components = dict(self.data["components"])
                for entity in entities:
                    components[entity["id"]] = entity
                new = {**self.data, "components": components, "seenWebhookIds": seen}
                result = {"duplicate": False, "upserted": len(entities)}
            self._write(new)
            # Memory moves on only once the file is on disk: a failed write changes nothing.
            self.data, self._seen = new, set(seen)
            return result

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


def make_handler(
    secret: str,
    store: JsonStore,
    path: str = "/hooks/components",
    log: Callable[[str], None] = lambda line: print(line, flush=True),
    mirror: bool = False,
):
    """The request handler class of a receiver, bound to its secret and store.
    With ``mirror``, deliveries that name their run are applied mirror-style."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            if urlsplit(self.path).path != path:
                return self._reply(404, {"error": f"nothing at {self.path}; pushes go to {path}"})
            try:
                # The raw bytes, exactly as sent: the signature covers these.
                body = self._read_body()
                webhook_id = verify_signature(secret, self.headers, body)
                entities = parse_batch(body)
                # complib-* headers are outside the signature: read only once it verified.
                run = read_run_position(self.headers) if mirror else None
                result = store.apply(webhook_id, entities, run)
            except DeliveryError as error:
                log(f"rejected ({error.status}): {error}")
                return self._reply(error.status, {"error": str(error)})
            except OSError as error:
                log(f"failed: {error}")
                return self._reply(500, {"error": "could not store the batch"})
            log(f"{webhook_id}: {_describe(result)}")
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


def _describe(result: dict[str, Any]) -> str:
    outcome = result.get("mirror") or {}
    if result["duplicate"]:
        return "already applied, skipped"
    if outcome.get("stale"):
        return "from a run older than the last completed one, skipped"
    return f"upserted {result['upserted']}" + (f", run complete, removed {outcome['removed']}" if outcome.get("complete") else "")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Receive complib pushes; WEBHOOK_SECRET holds the connector's signing secret.")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8080")), help="0 picks a free port (default 8080)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--file", default="components.json", help="JSON file the components are upserted into")
    parser.add_argument("--path", default="/hooks/components", help="URL path pushes arrive at")
    parser.add_argument(
        "--mirror",
        action="store_true",
        default=os.environ.get("MIRROR") == "1",
        help="once every batch of a push arrived, remove what it did not carry (also MIRROR=1)",
    )
    args = parser.parse_args(argv)
    # From the environment, not a flag, so the secret stays out of `ps`.
    secret = os.environ.get("WEBHOOK_SECRET", "")
    try:
        secret_key(secret)
    except ValueError as error:
        print(f"WEBHOOK_SECRET: {error}. Set it to the connector's signing secret (whsec_...).", file=sys.stderr)
        return 2
    store = JsonStore(args.file)
    server = ThreadingHTTPServer((args.host, args.port), make_handler(secret, store, args.path, mirror=args.mirror))
    what = "mirroring" if args.mirror else "storing"
    print(f"listening on http://{args.host}:{server.server_address[1]}{args.path}, {what} into {args.file}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
