"""Unit tests of bulk_edit.py: python3 -m unittest -v (in this folder).

The end-to-end tests against a real complib server are in test/bulk-edit.test.ts;
here a fake server answers what a real one cannot be made to answer on cue (a 412).
"""

import contextlib
import io
import json
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import bulk_edit


class NextLink(unittest.TestCase):
    def test_finds_the_next_target(self):
        self.assertEqual(bulk_edit.next_link('</api/components?limit=2&cursor=abc>; rel="next"'), "/api/components?limit=2&cursor=abc")

    def test_among_several_links_and_relation_types(self):
        self.assertEqual(bulk_edit.next_link('</a>; rel="prev", </b?x=1,2>; rel="next last"'), "/b?x=1,2")
        self.assertEqual(bulk_edit.next_link("</c>; title=x; rel=next"), "/c")

    def test_none_on_the_last_page(self):
        for header in [None, "", '</a>; rel="prev"', '</a>; rel="nextish"']:
            with self.subTest(header=header):
                self.assertIsNone(bulk_edit.next_link(header))


class Render(unittest.TestCase):
    def test_fills_fields_and_keeps_doubled_braces(self):
        component = {"name": "R 10k", "ipn": "RES-1", "description": None}
        self.assertEqual(bulk_edit.render("{name} ({ipn}) {{raw}} [{description}]", component), "R 10k (RES-1) {raw} []")

    def test_lists_the_fields_a_template_names(self):
        self.assertEqual(bulk_edit.template_fields("{{x}} {name} {foo}"), ["name", "foo"])


class CommentHeader(unittest.TestCase):
    def test_sends_printable_ascii_as_is_and_encodes_the_rest_as_the_server_decodes(self):
        from urllib.parse import unquote

        self.assertEqual(bulk_edit.comment_header("Datasheet rev C (page 3)"), "Datasheet rev C (page 3)")
        for comment in ["Widerstand geändert, Ω → kΩ", "tolerance 1% now"]:
            with self.subTest(comment=comment):
                header = bulk_edit.comment_header(comment)
                self.assertRegex(header, r"^[\x21-\x7e]+$")
                self.assertEqual(unquote(header), comment)


class FakeServer(unittest.TestCase):
    """Two pages linked by `Link`, and a PATCH that answers 412 for one id."""

    def setUp(self):
        self.patches = []
        self.credentials = []
        components = [{"id": f"cmp_{i}", "name": f"R {i}", "version": i + 1, "description": None} for i in range(3)]
        test = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                test.credentials.append(("GET", self.headers["authorization"], self.headers["complib-comment"]))
                cursor = parse_qs(urlsplit(self.path).query).get("cursor", ["0"])[0]
                page = components[:2] if cursor == "0" else components[2:]
                headers = {"x-total-count": "3"}
                if cursor == "0":
                    headers["link"] = '</api/components?limit=2&cursor=2>; rel="next"'
                self.reply(200, page, headers)

            def do_PATCH(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                test.patches.append((self.path, self.headers["if-match"], body))
                test.credentials.append(("PATCH", self.headers["authorization"], self.headers["complib-comment"]))
                if self.path.endswith("cmp_1"):
                    return self.reply(412, {"type": "urn:complib:problem:PRECONDITION_FAILED", "title": "Precondition failed", "status": 412, "code": "PRECONDITION_FAILED", "detail": "version is 3, not 2"})
                self.reply(200, {})

            def reply(self, status, body, headers=None):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/problem+json" if status >= 400 else "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()

    def run_main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = bulk_edit.main(["--base-url", self.url, *args])
        return code, out.getvalue(), err.getvalue()

    def test_follows_the_link_header_and_patches_with_if_match(self):
        code, out, err = self.run_main("--set", "Resistor {name}", "--page-size", "2")
        self.assertEqual(err.splitlines(), ["listed 2/3", "listed 3/3"])
        self.assertEqual(
            self.patches,
            [
                ("/api/components/cmp_0", '"1"', {"description": "Resistor R 0"}),
                ("/api/components/cmp_1", '"2"', {"description": "Resistor R 1"}),
                ("/api/components/cmp_2", '"3"', {"description": "Resistor R 2"}),
            ],
        )
        self.assertEqual(code, 1)
        self.assertIn("[2/3] cmp_1 'R 1': failed: PATCH /api/components/cmp_1: 412 Precondition failed [PRECONDITION_FAILED]: version is 3, not 2 (changed since it was listed: run again)", out)
        self.assertIn("done: 3 matched, 2 changed, 0 already so, 1 failed", out)

    def test_sends_the_token_before_the_key_and_the_comment_with_each_change(self):
        code, _, _ = self.run_main("--set", "Resistor {name}", "--token", "clt_t", "--api-key", "k", "--comment", "rev C: 1 %")
        self.assertEqual(code, 1)
        self.assertEqual(set(self.credentials), {("GET", "Bearer clt_t", None), ("PATCH", "Bearer clt_t", "rev%20C%3A%201%20%25")})
        self.credentials.clear()
        self.run_main("--set", "Resistor {name}", "--api-key", "k", "--token", "")
        self.assertEqual({c[1] for c in self.credentials}, {"Bearer k"})

    def test_a_dry_run_sends_no_patch(self):
        code, out, _ = self.run_main("--set", "Resistor {name}", "--dry-run")
        self.assertEqual((code, self.patches), (0, []))
        self.assertIn("done: 3 matched, 3 would change", out)


if __name__ == "__main__":
    unittest.main()
