#!/usr/bin/env python3
"""Writes the static Drupal-shaped JSON that nginx serves: node.json (~1.5 KB, as GET
/node/1?_format=json answers on Drupal 10) and articles.json (~64 KB page of the REST export
view /api/articles, rows shaped like the recorded 40-view-api-articles transcript)."""
import json, sys, uuid, os, random

def drupal_escape(s):
    # Drupal's JSON encoder escapes <, >, ', ", & as \u003C etc. and / as \/.
    out = json.dumps(s)
    for ch, esc in (("<", "\\u003C"), (">", "\\u003E"), ("'", "\\u0027"), ("&", "\\u0026"), ("/", "\\/")):
        out = out.replace(ch, esc)
    return out.replace('\\"', "\\u0022")

def encode(obj):
    if isinstance(obj, dict):
        return "{" + ",".join(json.dumps(k) + ":" + encode(v) for k, v in obj.items()) + "}"
    if isinstance(obj, list):
        return "[" + ",".join(encode(v) for v in obj) + "]"
    if isinstance(obj, str):
        return drupal_escape(obj)
    return json.dumps(obj)

NODE = r'''{"nid":[{"value":1}],"uuid":[{"value":"10aaceb6-96b1-45ea-b429-1d7147f58b35"}],"vid":[{"value":1}],"langcode":[{"value":"en"}],"type":[{"target_id":"article","target_type":"node_type","target_uuid":"b2a49855-200f-4eaa-b594-f5deb5166ae9"}],"revision_timestamp":[{"value":"2026-11-29T13:12:20+00:00","format":"Y-m-d\\TH:i:sP"}],"revision_uid":[{"target_id":1,"target_type":"user","target_uuid":"563d8bb5-a801-427d-8ab2-6b4adfe54cec","url":"\/user\/1"}],"status":[{"value":true}],"uid":[{"target_id":1,"target_type":"user","target_uuid":"563d8bb5-a801-427d-8ab2-6b4adfe54cec","url":"\/user\/1"}],"title":[{"value":"Article 1"}],"created":[{"value":"2026-11-29T13:12:20+00:00","format":"Y-m-d\\TH:i:sP"}],"changed":[{"value":"2026-11-29T13:12:20+00:00","format":"Y-m-d\\TH:i:sP"}],"promote":[{"value":true}],"sticky":[{"value":false}],"default_langcode":[{"value":true}],"revision_translation_affected":[{"value":true}],"path":[{"alias":"\/articles\/benchmarking-drupal-clients","pid":1,"langcode":"en"}],"body":[{"value":"\u003Cp\u003EBody of article 1, long enough to look like a teaser.\u003C\/p\u003E","format":"basic_html","processed":"\u003Cp\u003EBody of article 1, long enough to look like a teaser.\u003C\/p\u003E","summary":""}],"comment":[{"status":2,"cid":0,"last_comment_timestamp":1795957940,"last_comment_name":null,"last_comment_uid":1,"comment_count":0}],"field_image":[],"field_tags":[{"target_id":2,"target_type":"taxonomy_term","target_uuid":"9ce80b74-ed2b-4f07-be5c-8eaa7a2ed7ab","url":"\/taxonomy\/term\/2"}]}'''

WORDS = ("drupal rest view export node article field entity cache render module theme block "
         "menu taxonomy term user session token revision language translation media image").split()

def view_page(target=64 * 1024):
    rnd = random.Random(42)
    rows, size, nid = [], 2, 1
    while True:
        ts = "2026-11-%02dT%02d:%02d:20+00:00" % (1 + nid % 28, nid % 24, nid % 60)
        paras = "".join("<p>%s.</p>" % " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(12, 30))).capitalize()
                        for _ in range(2))
        row = {"nid": str(nid), "uuid": str(uuid.UUID(int=rnd.getrandbits(128), version=4)),
               "title": "Article %d: %s" % (nid, " ".join(rnd.choice(WORDS) for _ in range(4))),
               "created": '<time datetime="%s">%s</time>\n' % (ts, ts),
               "body": paras}
        text = encode(row)
        if size + len(text) + 1 > target:
            break
        rows.append(text)
        size += len(text) + 1
        nid += 1
    return "[" + ",".join(rows) + "]"

if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    json.loads(NODE)
    with open(os.path.join(out, "node.json"), "w") as f:
        f.write(NODE)
    page = view_page()
    json.loads(page)
    with open(os.path.join(out, "articles.json"), "w") as f:
        f.write(page)
