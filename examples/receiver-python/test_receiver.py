"""Unit tests of receiver.py: python3 -m unittest -v (in this folder)."""

import http.client
import json
import os
import shutil
import socket
import tempfile
import threading
import time
import unittest
from http.server import ThreadingHTTPServer

from receiver import MAX_RUNS, DeliveryError, JsonStore, MAX_SEEN, make_handler, parse_batch, read_run_position, sign, verify_signature

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "..", "..", "packages", "test-support", "webhook-vectors.json")
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
OTHER_SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD"
THIRD_SECRET = "whsec_" + "B" * 43 + "="


def headers_for(body: bytes, webhook_id="msg_1", timestamp=None, secret=SECRET):
    timestamp = str(int(time.time()) if timestamp is None else timestamp)
    return {"webhook-id": webhook_id, "webhook-timestamp": timestamp, "webhook-signature": sign(secret, webhook_id, timestamp, body)}


def status_of(fn):
    try:
        fn()
    except DeliveryError as error:
        return error.status
    return None


class KnownAnswerVectors(unittest.TestCase):
    def setUp(self):
        with open(VECTORS, encoding="utf-8") as f:
            self.vectors = json.load(f)["vectors"]

    def test_there_are_vectors(self):
        self.assertGreaterEqual(len(self.vectors), 5)

    def test_each_vector_verifies_at_its_time_and_a_changed_byte_does_not(self):
        for i, v in enumerate(self.vectors):
            with self.subTest(vector=i + 1, source=v["source"]):
                body = v["body"].encode()
                headers = {"webhook-id": v["id"], "webhook-timestamp": str(v["timestamp"]), "webhook-signature": v["signature"]}
                self.assertEqual(sign(v["secret"], v["id"], str(v["timestamp"]), body), v["signature"])
                self.assertEqual(verify_signature(v["secret"], headers, body, now=v["timestamp"]), v["id"])
                self.assertEqual(status_of(lambda: verify_signature(v["secret"], headers, body + b" ", now=v["timestamp"])), 401)
                self.assertEqual(status_of(lambda: verify_signature(v["secret"], {**headers, "webhook-id": v["id"] + "x"}, body, now=v["timestamp"])), 401)

    def test_a_vector_is_refused_at_the_real_time(self):
        v = self.vectors[0]
        headers = {"webhook-id": v["id"], "webhook-timestamp": str(v["timestamp"]), "webhook-signature": v["signature"]}
        self.assertEqual(status_of(lambda: verify_signature(v["secret"], headers, v["body"].encode())), 401)


class Verification(unittest.TestCase):
    body = b'{"entities":[{"id":"cmp_1","name":"R 10k"}]}'

    def test_timestamp_tolerance_is_five_minutes_either_way(self):
        headers = headers_for(self.body, timestamp=1_700_000_000)
        self.assertEqual(verify_signature(SECRET, headers, self.body, now=1_700_000_000 + 300), "msg_1")
        self.assertEqual(verify_signature(SECRET, headers, self.body, now=1_700_000_000 - 300), "msg_1")
        self.assertEqual(status_of(lambda: verify_signature(SECRET, headers, self.body, now=1_700_000_000 + 301)), 401)
        self.assertEqual(status_of(lambda: verify_signature(SECRET, headers, self.body, now=1_700_000_000 - 301)), 401)

    def test_tampered_body_and_wrong_secret_are_refused(self):
        self.assertEqual(status_of(lambda: verify_signature(SECRET, headers_for(self.body), self.body.replace(b"10k", b"10K"))), 401)
        self.assertEqual(status_of(lambda: verify_signature(SECRET, headers_for(self.body, secret=OTHER_SECRET), self.body)), 401)

    def test_any_one_of_several_signatures_matches_during_a_rotation(self):
        now = str(int(time.time()))
        both = f"{sign(OTHER_SECRET, 'msg_1', now, self.body)} {sign(SECRET, 'msg_1', now, self.body)}"
        headers = {"webhook-id": "msg_1", "webhook-timestamp": now, "webhook-signature": both}
        self.assertEqual(verify_signature(SECRET, headers, self.body), "msg_1")
        self.assertEqual(verify_signature(OTHER_SECRET, headers, self.body), "msg_1")
        self.assertEqual(status_of(lambda: verify_signature(THIRD_SECRET, headers, self.body)), 401)

    def test_only_v1_signatures_count(self):
        now = str(int(time.time()))
        value = sign(SECRET, "msg_1", now, self.body)[len("v1,"):]
        headers = {"webhook-id": "msg_1", "webhook-timestamp": now, "webhook-signature": f"v1,bm90IGl0 v2,{value} {value}"}
        self.assertEqual(status_of(lambda: verify_signature(SECRET, headers, self.body)), 401)

    def test_missing_or_malformed_headers_are_400(self):
        headers = headers_for(self.body)
        for name in headers:
            with self.subTest(missing=name):
                self.assertEqual(status_of(lambda: verify_signature(SECRET, {k: v for k, v in headers.items() if k != name}, self.body)), 400)
        for bad in ["+" + headers["webhook-timestamp"], " 1", "1_700_000_000", "1.5", "soon"]:
            with self.subTest(timestamp=bad):
                self.assertEqual(status_of(lambda: verify_signature(SECRET, {**headers, "webhook-timestamp": bad}, self.body)), 400)

    def test_the_raw_body_verifies_and_a_reserialisation_does_not(self):
        raw = b'{"entities": [{"id": "cmp_1", "name": "Caf\\u00e9 10\\u00b5F", "tolerance": 1.0, "qty": 1e3}]}'
        headers = headers_for(raw)
        self.assertEqual(verify_signature(SECRET, headers, raw), "msg_1")
        for reserialised in [json.dumps(json.loads(raw)), json.dumps(json.loads(raw), separators=(",", ":"), ensure_ascii=False)]:
            with self.subTest(reserialised=reserialised):
                self.assertNotEqual(reserialised.encode(), raw)
                self.assertEqual(status_of(lambda: verify_signature(SECRET, headers, reserialised.encode())), 401)

    def test_a_body_that_is_not_a_batch_is_400(self):
        for bad in [b"not json", b"\xff\xfe", b"[]", b'{"items":[]}', b'{"entities":[{"name":"no id"}]}', b'{"entities":[null]}', b'{"entities":[{"id":""}]}']:
            with self.subTest(body=bad):
                self.assertEqual(status_of(lambda: parse_batch(bad)), 400)
        self.assertEqual(parse_batch(self.body), [{"id": "cmp_1", "name": "R 10k"}])


class Store(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="receiver-python-")
        self.file = os.path.join(self.dir, "components.json")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def on_disk(self):
        with open(self.file, encoding="utf-8") as f:
            return json.load(f)

    def test_upserts_by_id(self):
        store = JsonStore(self.file)
        store.apply("msg_1", [{"id": "cmp_a", "name": "A"}, {"id": "cmp_b", "name": "B"}])
        store.apply("msg_2", [{"id": "cmp_a", "name": "A2"}])
        self.assertEqual(self.on_disk()["components"], {"cmp_a": {"id": "cmp_a", "name": "A2"}, "cmp_b": {"id": "cmp_b", "name": "B"}})

    def test_a_resent_webhook_id_is_not_applied_again_even_after_a_restart(self):
        store = JsonStore(self.file)
        self.assertEqual(store.apply("msg_1", [{"id": "cmp_a", "name": "old"}]), {"duplicate": False, "upserted": 1})
        store.apply("msg_2", [{"id": "cmp_a", "name": "new"}])
        self.assertEqual(JsonStore(self.file).apply("msg_1", [{"id": "cmp_a", "name": "old"}]), {"duplicate": True, "upserted": 0})
        self.assertEqual(self.on_disk()["components"]["cmp_a"]["name"], "new")

    def test_keeps_every_batch_of_concurrent_threads(self):
        store = JsonStore(self.file)
        threads = [threading.Thread(target=store.apply, args=(f"msg_{i}", [{"id": f"cmp_{i}"}])) for i in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(len(self.on_disk()["components"]), 20)
        self.assertEqual(os.listdir(self.dir), ["components.json"])

    def test_keeps_the_last_max_seen_webhook_ids(self):
        with open(self.file, "w", encoding="utf-8") as f:
            json.dump({"components": {}, "seenWebhookIds": [f"msg_{i}" for i in range(MAX_SEEN)]}, f)
        JsonStore(self.file).apply("msg_new", [{"id": "cmp_a"}])
        seen = self.on_disk()["seenWebhookIds"]
        self.assertEqual((len(seen), seen[0], seen[-1]), (MAX_SEEN, "msg_1", "msg_new"))

    def test_a_failed_write_changes_nothing_and_leaves_no_temporary_file(self):
        store = JsonStore(self.file)
        store.apply("msg_1", [{"id": "cmp_a", "name": "A"}])
        # A non-empty directory where the file goes: the rename fails, even for root.
        os.remove(self.file)
        os.makedirs(os.path.join(self.file, "blocker"))
        with self.assertRaises(OSError):
            store.apply("msg_2", [{"id": "cmp_a", "name": "B"}])
        self.assertEqual(store.data["components"]["cmp_a"]["name"], "A")
        self.assertEqual(os.listdir(self.dir), ["components.json"])
        shutil.rmtree(self.file)
        self.assertFalse(store.apply("msg_2", [{"id": "cmp_a", "name": "B"}])["duplicate"])
        self.assertEqual(self.on_disk()["components"]["cmp_a"]["name"], "B")


# Run ids are ULIDs: RUN_1 < RUN_2 < RUN_3, as complib makes them one after another.
RUN_1 = "run_01JD7W3T9X4QF5B8S2M6K0N1P1"
RUN_2 = "run_01JD7W3T9X4QF5B8S2M6K0N1P2"
RUN_3 = "run_01JD7W3T9X4QF5B8S2M6K0N1P3"


def parts(*ids):
    return [{"id": i, "name": i} for i in ids]


class Mirror(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="receiver-python-mirror-")
        self.file = os.path.join(self.dir, "components.json")
        self.store = JsonStore(self.file)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def ids(self, store=None):
        return sorted((store or self.store).data["components"])

    def test_reads_run_headers_or_none_and_refuses_malformed_ones(self):
        self.assertEqual(read_run_position({"complib-run-id": RUN_1, "complib-batch": "3/5"}), (RUN_1, 3, 5))
        self.assertIsNone(read_run_position({}))
        for headers in [{"complib-run-id": RUN_1}, {"complib-batch": "1/2"}, {"complib-run-id": "run_1", "complib-batch": "1/2"},
                        {"complib-run-id": RUN_1, "complib-batch": "0/2"}, {"complib-run-id": RUN_1, "complib-batch": "3/2"}]:
            with self.subTest(headers=headers):
                self.assertEqual(status_of(lambda: read_run_position(headers)), 400)

    def test_a_complete_run_removes_what_it_did_not_carry_whatever_the_order(self):
        self.store.apply("msg_0", parts("cmp_a", "cmp_b", "cmp_c", "cmp_d", "cmp_old"))
        self.assertFalse(self.store.apply("msg_3", parts("cmp_d"), (RUN_1, 3, 3))["mirror"]["complete"])
        self.store.apply("msg_1", parts("cmp_a"), (RUN_1, 1, 3))
        self.assertEqual(self.ids(), ["cmp_a", "cmp_b", "cmp_c", "cmp_d", "cmp_old"])
        result = self.store.apply("msg_2", parts("cmp_c"), (RUN_1, 2, 3))
        self.assertEqual(result, {"duplicate": False, "upserted": 1, "mirror": {"stale": False, "complete": True, "removed": 2}})
        self.assertEqual(self.ids(), ["cmp_a", "cmp_c", "cmp_d"])
        with open(self.file, encoding="utf-8") as f:
            self.assertEqual(json.load(f)["mirror"], {"runs": {}, "lastCompletedRunId": RUN_1})

    def test_an_incomplete_run_prunes_nothing_and_the_next_complete_one_does(self):
        self.store.apply("msg_0", parts("cmp_a", "cmp_gone"))
        self.store.apply("msg_1", parts("cmp_a"), (RUN_1, 1, 2))
        self.assertEqual(self.ids(), ["cmp_a", "cmp_gone"])
        self.store.apply("msg_2", parts("cmp_a"), (RUN_2, 1, 1))
        self.assertEqual(self.ids(), ["cmp_a"])

    def test_a_batch_number_is_applied_once_even_under_another_webhook_id(self):
        self.store.apply("msg_1", parts("cmp_a"), (RUN_1, 1, 2))
        self.assertEqual(self.store.apply("msg_1", parts("cmp_a"), (RUN_1, 1, 2)), {"duplicate": True, "upserted": 0})
        self.assertEqual(self.store.apply("msg_other", [{"id": "cmp_a", "name": "changed"}], (RUN_1, 1, 2)), {"duplicate": True, "upserted": 0})
        self.assertEqual(self.store.data["components"]["cmp_a"]["name"], "cmp_a")

    def test_a_late_batch_of_an_older_run_neither_resurrects_nor_overwrites(self):
        self.store.apply("msg_1a", parts("cmp_a"), (RUN_1, 1, 2))
        self.store.apply("msg_2a", [{"id": "cmp_a", "name": "newer"}], (RUN_2, 1, 1))
        late = self.store.apply("msg_1b", [{"id": "cmp_a", "name": "older"}, {"id": "cmp_deleted"}], (RUN_1, 2, 2))
        self.assertEqual(late, {"duplicate": False, "upserted": 0, "mirror": {"stale": True, "complete": False, "removed": 0}})
        self.assertEqual(self.store.data["components"], {"cmp_a": {"id": "cmp_a", "name": "newer"}})
        self.assertTrue(self.store.apply("msg_1b", [], (RUN_1, 2, 2))["duplicate"])

    def test_an_older_run_completing_keeps_what_a_newer_run_under_way_carried(self):
        self.store.apply("msg_1a", parts("cmp_a"), (RUN_1, 1, 2))
        self.store.apply("msg_2a", parts("cmp_new"), (RUN_2, 1, 2))
        self.store.apply("msg_1b", parts("cmp_b"), (RUN_1, 2, 2))
        self.assertEqual(self.ids(), ["cmp_a", "cmp_b", "cmp_new"])
        self.assertEqual(list(self.store.data["mirror"]["runs"]), [RUN_2])

    def test_a_batch_count_that_disagrees_is_400_and_changes_nothing(self):
        self.store.apply("msg_1", parts("cmp_a"), (RUN_1, 1, 2))
        self.assertEqual(status_of(lambda: self.store.apply("msg_2", parts("cmp_b"), (RUN_1, 2, 3))), 400)
        self.assertEqual(self.ids(), ["cmp_a"])

    def test_keeps_only_the_newest_incomplete_runs(self):
        runs = [f"run_01JD7W3T9X4QF5B8S2M6K0N1{chr(65 + i)}0" for i in range(MAX_RUNS + 2)]
        for i, run in enumerate(runs):
            self.store.apply(f"msg_{i}", parts(f"cmp_{i}"), (run, 1, 2))
        self.assertEqual(sorted(self.store.data["mirror"]["runs"]), runs[-MAX_RUNS:])

    def test_survives_a_restart_mid_run(self):
        self.store.apply("msg_0", parts("cmp_gone"))
        self.store.apply("msg_1", parts("cmp_a"), (RUN_3, 1, 2))
        reopened = JsonStore(self.file)
        self.assertEqual(reopened.apply("msg_2", parts("cmp_b"), (RUN_3, 2, 2))["mirror"], {"stale": False, "complete": True, "removed": 1})
        self.assertEqual(self.ids(reopened), ["cmp_a", "cmp_b"])


class Server(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="receiver-python-")
        self.store = JsonStore(os.path.join(self.dir, "components.json"))
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(SECRET, self.store, log=lambda line: None))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def request(self, method, path, body=None, headers=None, **kwargs):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.server_address[1], timeout=10)
        try:
            conn.request(method, path, body=body, headers=headers or {}, **kwargs)
            res = conn.getresponse()
            return res.status, json.loads(res.read())
        finally:
            conn.close()

    def raw_chunked_post(self, path, body, headers):
        # One write for the whole request: http.client sends the last chunk separately, and a receiver
        # that answers 411 and closes first turns that write into a BrokenPipeError (a flaky test).
        head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        request = f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ntransfer-encoding: chunked\r\n{head}\r\n".encode()
        request += f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"
        with socket.create_connection(("127.0.0.1", self.server.server_address[1]), timeout=10) as sock:
            sock.sendall(request)
            sock.shutdown(socket.SHUT_WR)
            status_line = sock.makefile("rb").readline()
        return int(status_line.split()[1])

    def test_applies_a_signed_batch_and_answers_200(self):
        body = b'{"entities":[{"id":"cmp_a","name":"A"}]}'
        self.assertEqual(self.request("POST", "/hooks/components", body, headers_for(body)), (200, {"duplicate": False, "upserted": 1}))
        self.assertEqual(self.store.data["components"], {"cmp_a": {"id": "cmp_a", "name": "A"}})

    def test_refuses_bad_deliveries_with_4xx(self):
        body = b'{"entities":[{"id":"cmp_a","name":"A"}]}'
        self.assertEqual(self.request("POST", "/hooks/components", body, headers_for(body, secret=OTHER_SECRET))[0], 401)
        self.assertEqual(self.request("POST", "/hooks/components", body)[0], 400)
        self.assertEqual(self.raw_chunked_post("/hooks/components", body, headers_for(body)), 411)
        self.assertEqual(self.request("POST", "/elsewhere", body, headers_for(body))[0], 404)
        self.assertEqual(self.request("GET", "/hooks/components")[0], 405)
        self.assertEqual(self.store.data["components"], {})

    def test_reads_run_headers_only_in_mirror_mode_and_after_the_signature(self):
        body = b'{"entities":[{"id":"cmp_a","name":"A"}]}'
        run = {"complib-run-id": RUN_1, "complib-batch": "1/1"}
        # Not mirroring: the run headers are ignored, even malformed ones.
        self.assertEqual(self.request("POST", "/hooks/components", body, {**headers_for(body), "complib-batch": "x"}), (200, {"duplicate": False, "upserted": 1}))
        mirror = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(SECRET, self.store, log=lambda line: None, mirror=True))
        threading.Thread(target=mirror.serve_forever, daemon=True).start()
        try:
            self.server, plain = mirror, self.server
            self.assertEqual(self.request("POST", "/hooks/components", body, {**headers_for(body, "msg_2", secret=OTHER_SECRET), **run})[0], 401)
            self.assertEqual(self.request("POST", "/hooks/components", body, {**headers_for(body, "msg_3"), "complib-batch": "1/1"})[0], 400)
            status, answer = self.request("POST", "/hooks/components", body, {**headers_for(body, "msg_4"), **run})
            self.assertEqual((status, answer["mirror"]), (200, {"stale": False, "complete": True, "removed": 0}))
            self.assertEqual(self.store.data["mirror"]["lastCompletedRunId"], RUN_1)
        finally:
            self.server = plain
            mirror.shutdown()
            mirror.server_close()


if __name__ == "__main__":
    unittest.main()
