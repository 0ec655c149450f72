#!/usr/bin/env python3
"""Bulk-edit component descriptions over complib's HTTP API, standard library only.

Lists every component (following the API's paging), picks those matching the
filters, and PATCHes their description from a template:

    python3 bulk_edit.py --match '^R .* 0603$' --set 'Thick film resistor, {name}' --dry-run
    python3 bulk_edit.py --match '^R .* 0603$' --set 'Thick film resistor, {name}'

Set COMPLIB_URL (default http://127.0.0.1:4000) and, once the server has
accounts, COMPLIB_TOKEN: an API token (or pass --base-url / --token). The
server's bootstrap key, COMPLIB_API_KEY / --api-key, works too. --comment gives
the reason recorded with each change.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Iterator, Optional

FIELDS = ("id", "name", "ipn", "category", "status", "description")
"""Fields a --set template may name, as {name}."""


class ApiError(Exception):
    """A request that failed, with the problem+json body the API answered (RFC 9457)."""

    def __init__(self, message: str, status: Optional[int] = None, problem: Optional[dict[str, Any]] = None):
        super().__init__(message)
        self.status = status
        self.problem = problem or {}


class Api:
    """A few lines of urllib: JSON in and out, a Bearer token, a comment, problem+json errors."""

    def __init__(self, base_url: str, token: Optional[str] = None, timeout: float = 30, comment: Optional[str] = None):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.comment = comment

    def request(self, method: str, path: str, body: Any = None, headers: Optional[dict[str, str]] = None):
        """Sends one request; returns (parsed JSON body, response headers). Raises ApiError."""
        url = urllib.parse.urljoin(self.base_url + "/", path)
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method, headers={"accept": "application/json", **(headers or {})})
        if data is not None:
            req.add_header("content-type", "application/json")
        if self.token:
            req.add_header("authorization", f"Bearer {self.token}")
        if self.comment and method != "GET":
            req.add_header("complib-comment", comment_header(self.comment))
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                text = res.read()
                return (json.loads(text) if text else None), res.headers
        except urllib.error.HTTPError as error:
            raise _api_error(method, url, error) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise ApiError(f"cannot reach {self.base_url}: {reason}") from None


def comment_header(comment: str) -> str:
    """The `Complib-Comment` header value: printable ASCII as is, anything else
    (and `%`, which the server would decode) percent-encoded as UTF-8."""
    if re.fullmatch(r"[\x20-\x24\x26-\x7e]*", comment):
        return comment
    return urllib.parse.quote(comment, safe="")


def list_components(api: Api, filters: dict[str, str], page_size: int = 200, progress=lambda seen, total: None) -> Iterator[dict[str, Any]]:
    """Yields every non-deleted component the server's filters (`tag`,
    `category`, `status`) let through, page by page: each response's
    `Link: <...>; rel="next"` header is the next page, until there is none.
    `X-Total-Count` gives the total for the progress report."""
    query = urllib.parse.urlencode({"limit": page_size, **{k: v for k, v in filters.items() if v}})
    path: Optional[str] = f"/api/components?{query}"
    seen = 0
    while path:
        page, headers = api.request("GET", path)
        seen += len(page)
        progress(seen, int(headers.get("x-total-count") or seen))
        yield from page
        path = next_link(headers.get("link"))


def next_link(link_header: Optional[str]) -> Optional[str]:
    """The `rel="next"` target of an RFC 8288 Link header, or None."""
    for target, params in re.findall(r"<([^>]*)>([^<]*)", link_header or ""):
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "rel" and "next" in value.strip().strip('"').lower().split():
                return target
    return None


def render(template: str, component: dict[str, Any]) -> str:
    """Fills {field} placeholders from the component; {{ and }} are literal braces."""

    def field(match: re.Match) -> str:
        if match.group(0) in ("{{", "}}"):
            return match.group(0)[0]
        value = component.get(match.group(1))
        return "" if value is None else str(value)

    return re.sub(r"\{\{|\}\}|\{(\w+)\}", field, template)


def template_fields(template: str) -> list[str]:
    return re.findall(r"(?<!\{)\{(\w+)\}(?!\})", template.replace("{{", "").replace("}}", ""))


def matches(component: dict[str, Any], args: argparse.Namespace) -> bool:
    """The filters the server has not applied: --match (name, ipn or a part number) and --only-empty."""
    if args.match:
        texts = [component.get("name") or "", component.get("ipn") or ""]
        texts += [m.get("partNumber") or "" for m in component.get("mpns") or []]
        if not any(re.search(args.match, text, re.IGNORECASE) for text in texts):
            return False
    if args.only_empty and component.get("description"):
        return False
    return True


def say(line: str) -> None:
    print(line, flush=True)


def main(argv: Optional[list[str]] = None) -> int:
    args = _parse_args(argv)
    # A token is a person's (their name goes into history); the API key is the server's bootstrap admin.
    api = Api(args.base_url, args.token or args.api_key, comment=args.comment)
    mode = "dry run: nothing is changed" if args.dry_run else "changing descriptions"
    say(f"{args.base_url}: {mode}")

    try:
        filters = {"tag": args.tag, "category": args.category, "status": args.status}
        components = list(list_components(api, filters, args.page_size, lambda seen, total: _progress(f"listed {seen}/{total}")))
    except ApiError as error:
        _progress_done()
        print(f"error: {error}", file=sys.stderr)
        return 1
    _progress_done()
    picked = [c for c in components if matches(c, args)]
    say(f"{len(components)} components, {len(picked)} match")

    changed = unchanged = failed = 0
    for i, component in enumerate(picked, 1):
        label = f"[{i}/{len(picked)}] {component['id']} {component.get('name', '')!r}"
        description = render(args.set, component)
        if description == (component.get("description") or ""):
            unchanged += 1
            say(f"{label}: already so")
            continue
        if args.dry_run:
            changed += 1
            say(f"{label}: would set {_short(description)} (was {_short(component.get('description'))})")
            continue
        try:
            # If-Match: the version we listed. Someone changing it meanwhile gets a 412, not an overwrite.
            api.request("PATCH", f"/api/components/{urllib.parse.quote(component['id'])}", {"description": description}, {"if-match": f'"{component["version"]}"'})
        except ApiError as error:
            failed += 1
            hint = " (changed since it was listed: run again)" if error.status == 412 else ""
            say(f"{label}: failed: {error}{hint}")
            continue
        changed += 1
        say(f"{label}: set {_short(description)}")

    verb = "would change" if args.dry_run else "changed"
    say(f"done: {len(picked)} matched, {changed} {verb}, {unchanged} already so, {failed} failed")
    return 1 if failed else 0


def _parse_args(argv: Optional[list[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Set the description of every complib component matching the filters.")
    parser.add_argument("--base-url", "--url", default=os.environ.get("COMPLIB_URL", "http://127.0.0.1:4000"), help="complib base URL (env COMPLIB_URL)")
    parser.add_argument("--token", default=os.environ.get("COMPLIB_TOKEN"), help="API token (clt_…), sent as a Bearer token (env COMPLIB_TOKEN)")
    parser.add_argument("--api-key", default=os.environ.get("COMPLIB_API_KEY"), help="the server's API key, used when no token is given (env COMPLIB_API_KEY)")
    parser.add_argument("--comment", help="why: recorded with each change, in its history and the audit trail (one line)")
    parser.add_argument("--set", required=True, metavar="TEMPLATE", help=f"new description; may use {', '.join('{' + f + '}' for f in FIELDS)}")
    parser.add_argument("--match", metavar="REGEX", help="only components whose name, ipn or a part number matches (case-insensitive)")
    parser.add_argument("--tag", help="only components with this tag (filtered by the server)")
    parser.add_argument("--category", help="only components in this category (filtered by the server)")
    parser.add_argument("--status", choices=["draft", "active", "nrnd", "obsolete"], help="only components in this status (filtered by the server)")
    parser.add_argument("--only-empty", action="store_true", help="only components without a description")
    parser.add_argument("--dry-run", action="store_true", help="show what would change, change nothing")
    parser.add_argument("--page-size", type=int, default=200, help="components per GET (1 to 100000; default 200)")
    args = parser.parse_args(argv)
    unknown = [f for f in template_fields(args.set) if f not in FIELDS]
    if unknown:
        parser.error(f"--set: unknown field {{{unknown[0]}}}; use {', '.join(FIELDS)}")
    if args.match:
        try:
            re.compile(args.match)
        except re.error as error:
            parser.error(f"--match: {error}")
    if not 1 <= args.page_size <= 100_000:
        parser.error("--page-size: 1 to 100000")
    return args


def _api_error(method: str, url: str, error: urllib.error.HTTPError) -> ApiError:
    """Turns an HTTP error into a message from its problem+json body: title, detail, and each field named."""
    text = error.read().decode("utf-8", "replace")
    problem: dict[str, Any] = {}
    if "json" in (error.headers.get("content-type") or ""):
        try:
            problem = json.loads(text)
        except json.JSONDecodeError:
            pass
    path = urllib.parse.urlsplit(url).path
    message = f"{method} {path}: {error.code} {problem.get('title') or error.reason}"
    if problem.get("code"):
        message += f" [{problem['code']}]"
    if problem.get("detail"):
        message += f": {problem['detail']}"
    for item in problem.get("errors") or []:
        line = f"{item.get('path')}: {item.get('message')}"
        if line != problem.get("detail"):
            message += f"\n    {line}"
    return ApiError(message, error.code, problem)


def _short(value: Optional[str], width: int = 60) -> str:
    if value is None:
        return "nothing"
    return repr(value if len(value) <= width else value[: width - 1] + "…")


_progress_shown = False


def _progress(line: str) -> None:
    """Progress on one rewritten line when stderr is a terminal, else one line each."""
    global _progress_shown
    if sys.stderr.isatty():
        sys.stderr.write(f"\r{line}")
        _progress_shown = True
    else:
        print(line, file=sys.stderr, flush=True)


def _progress_done() -> None:
    global _progress_shown
    if _progress_shown:
        sys.stderr.write("\n")
        _progress_shown = False


if __name__ == "__main__":
    sys.exit(main())
