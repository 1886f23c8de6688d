"""All mutable site state: entities, sessions, bearer tokens, counters.

Entities are kept as {field_name: [item, ...]} with raw values (timestamps as
Unix seconds, references as target ids); normalize.py turns them into JSON.
"""
import base64
import hashlib
import hmac
import secrets
import threading
import time
import uuid as uuidlib

from . import languages
from .oauth_tokens import TokenStore
from .pagecache import Caches
from .permissions import Account, ANON

# Config entities the recordings reference (uuids only need to be stable per run).
CONFIG_UUIDS = {}


def config_uuid(kind, name):
    key = (kind, name)
    if key not in CONFIG_UUIDS:
        CONFIG_UUIDS[key] = str(uuidlib.uuid4())
    return CONFIG_UUIDS[key]


def int_to_alphadecimal(n):
    """Drupal's Number::intToAlphadecimal: base 36 after a digit giving its length less one,
    so that the strings sort as the numbers do (9 "09", 10 "0a", 35 "0z", 36 "110")."""
    digits = ''
    while True:
        n, d = divmod(n, 36)
        digits = '0123456789abcdefghijklmnopqrstuvwxyz'[d] + digits
        if n == 0:
            return chr(ord('0') + len(digits) - 1) + digits


def alphadecimal_to_int(text):
    return int(text[1:], 36)


def new_uuid():
    return str(uuidlib.uuid4())


def urlsafe_token(raw):
    return base64.urlsafe_b64encode(raw).decode('ascii').rstrip('=')


class Session:
    def __init__(self, uid):
        self.uid = uid
        self.seed = secrets.token_bytes(32)

    def token(self, key):
        return urlsafe_token(hmac.new(self.seed, key.encode(), hashlib.sha256).digest())


# Keys used for CSRF tokens: login's csrf_token ('rest' in 10.x) and /session/token.
CSRF_KEYS = ('X-CSRF-Token request header', 'rest')
LOGOUT_KEY = 'user/logout'


class Store:
    def __init__(self):
        self.lock = threading.RLock()
        self.sessions = {}
        self.bearer = {}            # test-seam tokens (POST /__fake/bearer): token -> uid
        self.oauth_site = False     # simple_oauth installed for good (the extended site)
        self.site = 'base'          # 'extended': + languages (languages.py), set by settings.py
        self.reset()

    # ----- seed -----------------------------------------------------------
    def reset(self):
        with self.lock:
            now = int(time.time())
            self.sessions.clear()
            self.bearer.clear()
            self.oauth = TokenStore()
            self.caches = Caches()
            self.flood = {}
            self.entities = {'node': {}, 'comment': {}, 'taxonomy_term': {}, 'user': {}, 'file': {}}
            self.next_id = {'node': 1, 'comment': 1, 'taxonomy_term': 1, 'user': 1, 'file': 1}
            self.next_vid = 1
            self.passwords = {}
            self.file_data = {}
            self.translations = {}      # (entity type, id) -> {langcode: {field: items}}
            self.aliases = {}           # path_alias id -> {path, alias, langcode} (paths.py)
            self.next_alias_id = 1
            self._seed_user('admin', 'admin', 'admin@localhost', ['administrator'], now)
            self._seed_user('editor', 'editor', 'editor@example.com', ['content_editor'], now)
            for name in ('alpha', 'beta'):
                self.create_term({'vid': [{'target_id': 'tags'}], 'name': [{'value': name}],
                                  'description': [{'value': None, 'format': None}]}, now)
            tags = {1: 2, 2: 1, 3: 2, 4: 1, 5: 2}
            for n in range(1, 6):
                self.create_node({
                    'type': [{'target_id': 'article'}],
                    'title': [{'value': 'Article %d' % n}],
                    'body': [{'value': '<p>Body of article %d</p>' % n, 'format': 'basic_html',
                              'summary': ''}],
                    'field_tags': [{'target_id': tags[n]}],
                }, uid=1 if n <= 3 else 2, now=now)
                self.init_comment_statistics(n)
            if self.site == 'extended':
                languages.seed(self)

    def _seed_user(self, name, password, mail, roles, now):
        uid = self._take_id('user')
        self.entities['user'][uid] = {
            'uid': [{'value': uid}], 'uuid': [{'value': new_uuid()}], 'langcode': [{'value': 'en'}],
            'preferred_langcode': [{'value': 'en'}], 'preferred_admin_langcode': [],
            'name': [{'value': name}], 'mail': [{'value': mail}], 'timezone': [{'value': 'UTC'}],
            'status': [{'value': True}], 'created': [{'value': now}], 'changed': [{'value': now}],
            'access': [{'value': now}], 'login': [{'value': now}], 'init': [{'value': mail}],
            'roles': [{'target_id': r} for r in roles], 'default_langcode': [{'value': True}],
            'user_picture': [],
        }
        self.passwords[uid] = password
        return uid

    def _take_id(self, entity_type):
        i = self.next_id[entity_type]
        self.next_id[entity_type] = i + 1
        return i

    # ----- entity creation (fields already validated) ---------------------
    def create_node(self, fields, uid, now=None):
        now = now or int(time.time())
        nid = self._take_id('node')
        vid = self.next_vid
        self.next_vid += 1
        bundle = fields['type'][0]['target_id']
        node = {
            'nid': [{'value': nid}], 'uuid': [{'value': new_uuid()}], 'vid': [{'value': vid}],
            'langcode': [{'value': 'en'}], 'type': [{'target_id': bundle}],
            'revision_timestamp': [{'value': now}], 'revision_uid': [{'target_id': uid}],
            'revision_log': [], 'status': [{'value': True}], 'uid': [{'target_id': uid}],
            'title': [], 'created': [{'value': now}], 'changed': [{'value': now}],
            'promote': [{'value': bundle == 'article'}], 'sticky': [{'value': False}],
            'default_langcode': [{'value': True}], 'revision_translation_affected': [{'value': True}],
            'path': [{'alias': None, 'pid': None, 'langcode': 'en'}], 'body': [],
        }
        if bundle == 'article':
            node.update({
                'comment': [{'status': 2, 'cid': 0, 'last_comment_timestamp': 0,
                             'last_comment_name': None, 'last_comment_uid': 0, 'comment_count': 0}],
                'field_image': [], 'field_tags': [],
            })
        if self.site == 'extended' and bundle == 'article':
            languages.source_fields(node)
        self._apply(node, fields, skip=('type',))
        self.entities['node'][nid] = node
        return nid

    def init_comment_statistics(self, nid):
        """comment module writes a new node's statistics row after the node is
        saved: the create answer shows zeros, a reload the owner and time."""
        node = self.entities['node'][nid]
        if node.get('comment'):
            stats = node['comment'][0]
            if not stats['comment_count']:
                stats['last_comment_timestamp'] = node['created'][0]['value']
                stats['last_comment_uid'] = node['uid'][0]['target_id']

    def refresh_comment_statistics(self, nid):
        """CommentStatistics::update after a comment is saved or deleted: the published comments'
        count and the newest one's (by created) cid, changed time and author (an anonymous author's
        name, '' for an account: 43); none left: zeros, the node's own changed time and owner."""
        node = self.entities['node'].get(nid)
        if not node or not node.get('comment'):
            return
        stats = node['comment'][0]
        published = [(cid, c) for cid, c in self.entities['comment'].items()
                     if c['entity_id'][0]['target_id'] == nid and c['status'][0]['value']]
        stats['comment_count'] = len(published)
        if published:
            cid, last = max(published, key=lambda pair: (pair[1]['created'][0]['value'], pair[0]))
            uid = last['uid'][0]['target_id'] if last['uid'] else 0
            stats.update({'cid': cid, 'last_comment_timestamp': last['changed'][0]['value'],
                          'last_comment_uid': uid,
                          'last_comment_name': '' if uid else (last['name'] or [{}])[0].get('value')})
        else:
            stats.update({'cid': 0, 'last_comment_timestamp': node['changed'][0]['value'],
                          'last_comment_uid': node['uid'][0]['target_id'], 'last_comment_name': ''})

    def create_term(self, fields, now=None, uid=None):
        now = now or int(time.time())
        tid = self._take_id('taxonomy_term')
        term = {
            'tid': [{'value': tid}], 'uuid': [{'value': new_uuid()}], 'revision_id': [{'value': tid}],
            'langcode': [{'value': 'en'}], 'vid': [{'target_id': fields['vid'][0]['target_id']}],
            'revision_created': [{'value': now}], 'revision_user': [], 'revision_log_message': [],
            'status': [{'value': True}], 'name': [], 'description': [], 'weight': [{'value': 0}],
            'parent': [{'target_id': 0}], 'changed': [{'value': now}],
            'default_langcode': [{'value': True}], 'revision_translation_affected': [{'value': True}],
            'path': [{'alias': None, 'pid': None, 'langcode': 'en'}],
        }
        self._apply(term, fields, skip=('vid',))
        self.entities['taxonomy_term'][tid] = term
        return tid

    def create_comment(self, fields, uid, now=None):
        now = now or int(time.time())
        cid = self._take_id('comment')
        host_id = fields['entity_id'][0]['target_id']
        comment = {
            'cid': [{'value': cid}], 'uuid': [{'value': new_uuid()}], 'langcode': [{'value': 'en'}],
            'comment_type': [{'target_id': fields['comment_type'][0]['target_id']}],
            'status': [{'value': True}], 'uid': [{'target_id': uid}], 'pid': [],
            'entity_id': [{'target_id': host_id}], 'subject': [], 'name': [], 'mail': [],
            'homepage': [], 'created': [{'value': now}], 'changed': [{'value': now}],
            'entity_type': [{'value': 'node'}], 'field_name': [{'value': 'comment'}],
            'default_langcode': [{'value': True}], 'comment_body': [],
        }
        self._apply(comment, fields, skip=('comment_type', 'entity_id', 'entity_type', 'field_name'))
        comment['thread'] = [{'value': self._next_thread(host_id, comment['pid'])}]
        if not comment['subject'] and comment['comment_body']:
            import re
            text = re.sub(r'<[^>]*>', '', comment['comment_body'][0].get('value') or '').strip()
            comment['subject'] = [{'value': text[:29]}] if text else []
        self.entities['comment'][cid] = comment
        self.refresh_comment_statistics(host_id)
        return cid

    def create_user(self, fields, status, now=None):
        now = now or int(time.time())
        uid = self._take_id('user')
        mail = fields.get('mail', [{}])[0].get('value') if fields.get('mail') else None
        user = {
            'uid': [{'value': uid}], 'uuid': [{'value': new_uuid()}], 'langcode': [{'value': 'en'}],
            'preferred_langcode': [{'value': 'en'}], 'preferred_admin_langcode': [],
            'name': [], 'mail': [], 'timezone': [{'value': 'UTC'}], 'status': [{'value': status}],
            'created': [{'value': now}], 'changed': [{'value': now}], 'access': [{'value': 0}],
            'login': [{'value': 0}], 'init': [{'value': mail}] if mail else [], 'roles': [],
            'default_langcode': [{'value': True}], 'user_picture': [],
        }
        password = None
        if fields.get('pass'):
            password = fields['pass'][0].get('value')
        self._apply(user, fields, skip=('pass',))
        self.entities['user'][uid] = user
        self.passwords[uid] = password or secrets.token_urlsafe(12)
        return uid

    def create_file(self, uid, filename, uri, mime, data, now=None):
        now = now or int(time.time())
        fid = self._take_id('file')
        self.entities['file'][fid] = {
            'fid': [{'value': fid}], 'uuid': [{'value': new_uuid()}], 'langcode': [{'value': 'en'}],
            'uid': [{'target_id': uid}], 'filename': [{'value': filename}], 'uri': [{'value': uri}],
            'filemime': [{'value': mime}], 'filesize': [{'value': len(data)}],
            'status': [{'value': False}], 'created': [{'value': now}], 'changed': [{'value': now}],
        }
        self.file_data[uri] = (mime, data)
        return fid

    def _next_thread(self, host_id, pid):
        """Drupal's place for a new comment in its host's thread (Comment::preSave): one more
        than the highest number at its depth, "01/", "02/"... for top-level comments and
        "01.00/", "01.01/"... for replies to "01/", in alphadecimal (after "09" comes "0a")."""
        parent = self.entities['comment'].get(pid[0]['target_id']) if pid else None
        prefix = parent['thread'][0]['value'].rstrip('/') + '.' if parent else ''
        depth = prefix.count('.')
        highest = -1 if parent else 0
        for c in self.entities['comment'].values():
            thread = c['thread'][0]['value'].rstrip('/')
            if c['entity_id'][0]['target_id'] == host_id and thread.startswith(prefix):
                highest = max(highest, alphadecimal_to_int(thread.split('.')[depth]))
        return prefix + int_to_alphadecimal(highest + 1) + '/'

    @staticmethod
    def _apply(entity, fields, skip=()):
        for name, items in fields.items():
            if name not in skip:
                entity[name] = [dict(i) for i in items]

    # ----- lookups ----------------------------------------------------------
    def get(self, entity_type, entity_id):
        return self.entities[entity_type].get(entity_id)

    def uuid_of(self, entity_type, entity_id):
        e = self.get(entity_type, entity_id)
        return e['uuid'][0]['value'] if e else None

    def account(self, uid):
        user = self.entities['user'].get(uid)
        if not user or not user['status'][0]['value']:
            return ANON
        return Account(uid, [r['target_id'] for r in user['roles']])

    def user_by_name(self, name):
        for uid, u in self.entities['user'].items():
            if u['name'] and u['name'][0]['value'] == name:
                return uid
        return None

    def user_by_mail(self, mail):
        for uid, u in self.entities['user'].items():
            if u['mail'] and u['mail'][0]['value'] == mail:
                return uid
        return None

    def check_password(self, name, password):
        uid = self.user_by_name(name)
        if uid is not None and self.passwords.get(uid) == password:
            return uid
        return None

    def oauth_installed(self):
        """simple_oauth is there on the extended site, and on the base site
        once a test registered a token (until the next reset)."""
        return self.oauth_site or bool(self.bearer)

    # ----- sessions ---------------------------------------------------------
    def new_session(self, uid):
        sid = secrets.token_urlsafe(24) + ',' + secrets.token_urlsafe(12)
        self.sessions[sid] = Session(uid)
        return sid

    def invalidate_csrf(self):
        for s in self.sessions.values():
            s.seed = secrets.token_bytes(32)

    def drop_user_sessions(self, uid, keep=None):
        for sid in [k for k, s in self.sessions.items() if s.uid == uid and k != keep]:
            del self.sessions[sid]
