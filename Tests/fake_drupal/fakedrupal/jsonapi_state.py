"""What JSON:API keeps next to the shared store: a UUID index, old node
revisions and the anonymous user (uid 0, which core REST never shows).

The state hangs off the store and is rebuilt when the store's entity tables
are replaced (POST /__fake/reset), so store.reset() needs no hook.
Entities themselves stay in store.entities: a node written through JSON:API is
the same node core REST serves, and vice versa.
"""
import copy

from .store import new_uuid


class _State:
    def __init__(self, store):
        self.entities = store.entities
        self.uuid_index = {}        # entity type -> {uuid: id}
        self.revisions = {}         # (entity type, id) -> {revision id: field snapshot}
        self.anonymous = {
            'uid': [{'value': 0}], 'uuid': [{'value': new_uuid()}], 'langcode': [{'value': 'en'}],
            'preferred_langcode': [{'value': 'en'}], 'preferred_admin_langcode': [],
            'name': [{'value': ''}], 'mail': [], 'timezone': [], 'status': [{'value': False}],
            'created': [{'value': 0}], 'changed': [{'value': 0}], 'access': [{'value': 0}],
            'login': [{'value': 0}], 'init': [], 'roles': [], 'default_langcode': [{'value': True}],
            'user_picture': [],
        }


def state(store):
    st = getattr(store, '_jsonapi_state', None)
    if st is None or st.entities is not store.entities:
        st = _State(store)
        store._jsonapi_state = st
    return st


def get(store, entity_type, entity_id):
    if entity_type == 'user' and entity_id == 0:
        return state(store).anonymous
    return store.entities[entity_type].get(entity_id)


def uuid_of(entity):
    return entity['uuid'][0]['value']


def find(store, entity_type, uuid):
    """(id, entity) for a UUID, else (None, None). The index is rebuilt on a miss,
    so entities made or deleted through core REST are found too."""
    if not isinstance(uuid, str):
        return None, None
    st = state(store)
    if entity_type == 'user' and uuid == uuid_of(st.anonymous):
        return 0, st.anonymous
    table = store.entities.get(entity_type)
    if table is None:
        return None, None
    index = st.uuid_index.get(entity_type)
    for attempt in (0, 1):
        if index is not None and uuid in index:
            entity = table.get(index[uuid])
            if entity is not None and uuid_of(entity) == uuid:
                return index[uuid], entity
        if attempt == 0:
            index = {uuid_of(e): i for i, e in table.items()}
            st.uuid_index[entity_type] = index
    return None, None


def uuid_taken(store, entity_type, uuid):
    return find(store, entity_type, uuid)[0] is not None


def entities(store, entity_type):
    """(id, entity) in storage order. The anonymous user comes first, as on the site (171b)."""
    if entity_type == 'user':
        yield 0, state(store).anonymous
    yield from store.entities[entity_type].items()


def saved(store, entity_type, entity_id):
    """An entity was saved: Drupal rewrites its data-table rows, so an unsorted
    collection lists it last from now on (184b: node 7 before node 6)."""
    table = store.entities[entity_type]
    if entity_id in table:
        table[entity_id] = table.pop(entity_id)


def snapshot(entity):
    return {k: copy.deepcopy(v) for k, v in entity.items() if isinstance(v, list)}


def remember_revision(store, entity_type, entity_id, revision_id, entity):
    state(store).revisions.setdefault((entity_type, entity_id), {})[revision_id] = snapshot(entity)


def old_revision(store, entity_type, entity_id, revision_id):
    return state(store).revisions.get((entity_type, entity_id), {}).get(revision_id)


def delete(store, entity_type, entity_id):
    gone = store.entities[entity_type].pop(entity_id)
    if entity_type == 'comment':
        store.refresh_comment_statistics(gone['entity_id'][0]['target_id'])
    state(store).revisions.pop((entity_type, entity_id), None)
    if entity_type == 'node':
        comments = store.entities['comment']
        for cid in [c for c, e in comments.items() if e['entity_id'][0]['target_id'] == entity_id]:
            del comments[cid]
    elif entity_type == 'user':
        store.drop_user_sessions(entity_id)
