"""Path aliases: a saved `path` item gets the new path_alias entity's id as `pid` (PathItem::postSave),
a read computes the item from the alias (PathFieldItemList::computeValue), and a request for the alias
routes as the entity's path (AliasPathProcessor). No recording shows an
alias; Drupal's source decides (fakedrupal/paths.py)."""
import base64
import http.client
import json
from urllib.parse import quote

ADMIN = 'Basic ' + base64.b64encode(b'admin:admin').decode()
ARTICLE = {'type': [{'target_id': 'article'}], 'title': [{'value': 'Aliased'}]}


def call(server, method, path, body=None, media='application/json', auth=ADMIN):
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    headers = {'Accept': media, **({'Authorization': auth} if auth else {})}
    if body is not None:
        headers['Content-Type'] = media
        body = json.dumps(body)
    conn.request(method, path, body=body, headers=headers)
    r = conn.getresponse()
    status, data = r.status, r.read()
    conn.close()
    return status, json.loads(data) if status < 500 and data else data


def rest_path(server, path):
    status, body = call(server, 'GET', path + '?_format=json')
    assert status == 200
    return body['path']


def test_rest_writes_give_the_alias_its_id(server):
    status, node = call(server, 'POST', '/node?_format=json', dict(ARTICLE, path=[{'alias': ' /hello/ '}]))
    assert status == 201
    # The answer: the item as written (trimmed), its langcode as sent, the new alias's id.
    assert node['path'] == [{'alias': '/hello/', 'pid': 1, 'langcode': None}]
    url = '/node/%d' % node['nid'][0]['value']
    # A read: the stored alias (trailing slash dropped by PathAlias::preSave), in the node's language.
    assert rest_path(server, url) == [{'alias': '/hello', 'pid': 1, 'langcode': 'en'}]

    # With its pid, the alias is renamed; without one, a new alias is made and a read shows the newest.
    renamed = {'alias': '/hello-2', 'pid': 1, 'langcode': 'en'}
    status, node = call(server, 'PATCH', url + '?_format=json', dict(ARTICLE, path=[renamed]))
    assert (status, node['path']) == (200, [renamed])
    assert rest_path(server, url) == [renamed]
    status, node = call(server, 'PATCH', url + '?_format=json', dict(ARTICLE, path=[{'alias': '/hello-3'}]))
    assert (status, node['path']) == (200, [{'alias': '/hello-3', 'pid': 2, 'langcode': None}])
    assert rest_path(server, url) == [{'alias': '/hello-3', 'pid': 2, 'langcode': 'en'}]

    # An empty alias with a pid deletes that alias; the older one shows again.
    status, node = call(server, 'PATCH', url + '?_format=json', dict(ARTICLE, path=[{'alias': '', 'pid': 2}]))
    assert (status, node['path']) == (200, [{'alias': '', 'pid': 2, 'langcode': None}])
    assert rest_path(server, url) == [renamed]
    call(server, 'PATCH', url + '?_format=json', dict(ARTICLE, path=[{'alias': None, 'pid': 1}]))
    assert rest_path(server, url) == [{'alias': None, 'pid': None, 'langcode': 'en'}]

    # A pid that names no alias fails on a null in postSave.
    status, _ = call(server, 'PATCH', url + '?_format=json', dict(ARTICLE, path=[{'alias': '/x', 'pid': 99}]))
    assert status == 500


def test_terms_have_aliases_too(server):
    status, term = call(server, 'POST', '/taxonomy/term?_format=json',
                        {'vid': [{'target_id': 'tags'}], 'name': [{'value': 'gamma'}], 'path': [{'alias': '/gamma'}]})
    assert (status, term['path']) == (201, [{'alias': '/gamma', 'pid': 1, 'langcode': None}])
    assert rest_path(server, '/taxonomy/term/%d' % term['tid'][0]['value']) == [
        {'alias': '/gamma', 'pid': 1, 'langcode': 'en'}]


def test_jsonapi_writes_give_the_alias_its_id(server):
    api = 'application/vnd.api+json'
    doc = {'data': {'type': 'node--article', 'attributes': {'title': 'Aliased', 'path': {'alias': '/api'}}}}
    status, created = call(server, 'POST', '/jsonapi/node/article', doc, api)
    assert status == 201
    resource = created['data']
    assert resource['attributes']['path'] == {'alias': '/api', 'pid': 1, 'langcode': None}
    url = '/jsonapi/node/article/' + resource['id']
    status, read = call(server, 'GET', url, media=api)
    assert read['data']['attributes']['path'] == {'alias': '/api', 'pid': 1, 'langcode': 'en'}
    nid = resource['attributes']['drupal_internal__nid']
    assert rest_path(server, '/node/%d' % nid) == [{'alias': '/api', 'pid': 1, 'langcode': 'en'}]

    patch = {'data': {'type': 'node--article', 'id': resource['id'],
                      'attributes': {'path': {'alias': '/api-2', 'pid': 1, 'langcode': 'en'}}}}
    status, updated = call(server, 'PATCH', url, patch, api)
    assert (status, updated['data']['attributes']['path']) == (200, {'alias': '/api-2', 'pid': 1, 'langcode': 'en'})
    status, read = call(server, 'GET', url, media=api)
    assert read['data']['attributes']['path'] == {'alias': '/api-2', 'pid': 1, 'langcode': 'en'}


def test_a_request_for_an_alias_routes_as_the_entitys_path(server):
    status, node = call(server, 'POST', '/node?_format=json', dict(ARTICLE, path=[{'alias': '/about/us'}]))
    assert status == 201
    nid = node['nid'][0]['value']
    # RouteProvider trims trailing slashes; lookupByAlias matches with LIKE, so case is ignored.
    for asked in ('/about/us', '/about/us/', '/About/US'):
        status, read = call(server, 'GET', asked + '?_format=json')
        assert (status, read['nid'][0]['value']) == (200, nid), asked
    status, edited = call(server, 'PATCH', '/about/us?_format=json', dict(ARTICLE, title=[{'value': 'Edited'}]))
    assert (status, edited['title'][0]['value']) == (200, 'Edited')
    # A message names the URL asked, not the system path it routed to.
    status, refused = call(server, 'PUT', '/about/us?_format=json', {})
    assert status == 405 and '/about/us' in refused['message'] and '/node/' not in refused['message']

    # The newest alias of a path wins; an older one still routes; a deleted entity's aliases are gone.
    call(server, 'PATCH', '/node/%d?_format=json' % nid, dict(ARTICLE, path=[{'alias': '/team'}]))
    assert call(server, 'GET', '/team?_format=json')[0] == 200
    assert call(server, 'GET', '/about/us?_format=json')[0] == 200
    assert call(server, 'DELETE', '/team?_format=json')[0] == 204
    assert call(server, 'GET', '/team?_format=json')[0] == 404
    assert call(server, 'GET', '/about/us?_format=json')[0] == 404


def resolve(server, path):
    # Anonymous: decoupled_router's route takes no Basic auth (a 403 "The used authentication method ...").
    return call(server, 'GET', '/router/translate-path?path=%s&_format=json' % quote(path), auth=None)


def test_decoupled_router_resolves_an_alias_to_the_entitys_aliased_url(ext):
    published = dict(ARTICLE, status=[{'value': True}], path=[{'alias': '/über-uns'}])
    status, node = call(ext, 'POST', '/node?_format=json', published)
    assert status == 201
    nid = str(node['nid'][0]['value'])
    # (Case is ignored for ASCII letters only: SQLite's LIKE folds no other.)
    for asked in ('/über-uns', '/%C3%BCber-uns', '/über-UNS/', 'über-uns?x=1#top'):
        status, resolved = resolve(ext, asked)
        assert status == 200, asked
        assert resolved['entity']['id'] == nid and resolved['label'] == 'Aliased'
        # Drupal writes an entity's URL with its alias, percent-encoded (UrlGenerator).
        assert resolved['resolved'] == resolved['entity']['canonical'] == ext.base + '/%C3%BCber-uns'
    # The system path resolves too, to the same aliased URL.
    status, resolved = resolve(ext, '/node/' + nid)
    assert resolved['entity']['canonical'] == ext.base + '/%C3%BCber-uns'
    # The alias is English: under the /fr prefix it is not one (the French lookup finds no alias).
    status, _ = resolve(ext, '/fr/über-uns')
    assert status == 404
