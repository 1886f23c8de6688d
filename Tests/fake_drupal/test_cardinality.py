"""A field of cardinality 1 given more than one item: FieldItemList's Count constraint, a 422 in core
REST (EntityResourceValidationTrait) and JSON:API (UnprocessableHttpEntityExceptionNormalizer, the
pointer under /data/attributes even for a relationship). No recording; Drupal's source decides
(fakedrupal/cardinality.py)."""
import base64
import http.client
import json

ADMIN = 'Basic ' + base64.b64encode(b'admin:admin').decode()
EDITOR = 'Basic ' + base64.b64encode(b'editor:editor').decode()
API = 'application/vnd.api+json'


def call(server, method, path, body, media='application/json', auth=ADMIN):
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={'Authorization': auth, 'Accept': media, 'Content-Type': media})
    r = conn.getresponse()
    status, data = r.status, json.loads(r.read())
    conn.close()
    return status, data


def test_core_rest_counts_the_items_of_single_value_fields(server):
    two_titles = {'type': [{'target_id': 'article'}], 'title': [{'value': 'a'}, {'value': 'b'}]}
    assert call(server, 'POST', '/node?_format=json', two_titles) == (422, {
        'message': 'Unprocessable Entity: validation failed.\ntitle: Title: this field cannot hold more than 1 values.\n'})
    two_owners = {'type': [{'target_id': 'article'}], 'uid': [{'target_id': 1}, {'target_id': 2}]}
    assert call(server, 'PATCH', '/node/1?_format=json', two_owners) == (422, {
        'message': 'Unprocessable Entity: validation failed.\nuid: Authored by: this field cannot hold more than '
                   '1 values.\n'})
    # Field access comes first: the editor may not set an owner at all.
    status, body = call(server, 'PATCH', '/node/4?_format=json', two_owners, auth=EDITOR)
    assert (status, body['message']) == (403, "Access denied on updating field 'uid'. The 'administer nodes' "
                                              "permission is required.")
    # A multi-value field takes them.
    tags = {'type': [{'target_id': 'article'}], 'field_tags': [{'target_id': 1}, {'target_id': 2}]}
    assert call(server, 'PATCH', '/node/1?_format=json', tags)[0] == 200


def test_jsonapi_counts_attributes_and_relationships(server):
    status, users = call(server, 'GET', '/jsonapi/user/user?filter[name]=editor', None, API)
    editor = users['data'][0]['id']
    owners = {'data': [{'type': 'user--user', 'id': editor}] * 2}
    doc = {'data': {'type': 'node--article', 'attributes': {'title': 'x'}, 'relationships': {'uid': owners}}}
    status, body = call(server, 'POST', '/jsonapi/node/article', doc, API)
    assert status == 422
    assert [(e['detail'], e['source']['pointer']) for e in body['errors']] == [
        ('uid: Authored by: this field cannot hold more than 1 values.', '/data/attributes/uid')]
    doc = {'data': {'type': 'node--article', 'attributes': {'title': ['a', 'b']}}}
    status, body = call(server, 'POST', '/jsonapi/node/article', doc, API)
    assert (status, [(e['detail'], e['source']['pointer']) for e in body['errors']]) == (422, [
        ('title: Title: this field cannot hold more than 1 values.', '/data/attributes/title')])
    doc = {'data': {'type': 'node--article', 'attributes': {'title': ['One of one']}}}
    status, body = call(server, 'POST', '/jsonapi/node/article', doc, API)
    assert (status, body['data']['attributes']['title']) == (201, 'One of one')
