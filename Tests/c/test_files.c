/* Streamed files from C against the fake: uploads from a path (progress, cancellation, safe file
 * names), downloads to a path or a write callback (public and private files, by URL and by file
 * entity, progress, the size cap, nothing left behind on failure), async and _sync, bad input. */
#include "check.h"
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];

static void path_in(char *out, size_t size, const char *name) { snprintf(out, size, "%s/%s", dir, name); }

static int exists(const char *path) {
    struct stat info;
    return stat(path, &info) == 0;
}

/* How many part files ("<name>.<random>.part") a download to dir/name left beside it. */
static int part_files(const char *name) {
    DIR *d = opendir(dir);
    struct dirent *entry;
    size_t n = strlen(name);
    int count = 0;
    if (d == NULL) return -1;
    while ((entry = readdir(d)) != NULL) {
        size_t length = strlen(entry->d_name);
        if (length > n + 6 && strncmp(entry->d_name, name, n) == 0 && entry->d_name[n] == '.'
            && strcmp(entry->d_name + length - 5, ".part") == 0) count++;
    }
    closedir(d);
    return count;
}

/* A file of n bytes: a PNG signature, then a pattern. */
static void make_file(const char *path, size_t n) {
    FILE *f = fopen(path, "wb");
    size_t i;
    const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    fwrite(png, 1, 8, f);
    for (i = 8; i < n; i++) fputc((int)((i * 31) & 0xff), f);
    fclose(f);
}

static int same_content(const char *a, const char *b) {
    FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
    int same = x && y, cx, cy;
    while (same) {
        cx = fgetc(x);
        cy = fgetc(y);
        if (cx != cy) same = 0;
        if (cx == EOF || cy == EOF) break;
    }
    if (x) fclose(x);
    if (y) fclose(y);
    return same;
}

/* The progress and write callbacks run on a library thread: the state they share with the test
 * is read and changed under its lock (the library orders them before the call's end, but through
 * the Swift runtime, which ThreadSanitizer cannot see). */
typedef struct {
    int calls;
    int64_t last_done, last_total;
    int monotonic;
    int64_t cancel_after;  /* 0 = never */
} progress;

typedef struct {
    pthread_mutex_t lock;
    progress now;
} progress_state;

#define PROGRESS_STATE_INIT {PTHREAD_MUTEX_INITIALIZER, {0, 0, 0, 1, 0}}

static int on_progress(int64_t done, int64_t total, void *userdata) {
    progress_state *p = userdata;
    int cancel;
    pthread_mutex_lock(&p->lock);
    if (done < p->now.last_done) p->now.monotonic = 0;
    p->now.calls++;
    p->now.last_done = done;
    p->now.last_total = total;
    cancel = p->now.cancel_after && done >= p->now.cancel_after;
    pthread_mutex_unlock(&p->lock);
    return cancel;
}

/* The progress seen so far, as a copy taken under the lock. */
static progress progress_seen(progress_state *p) {
    progress seen;
    pthread_mutex_lock(&p->lock);
    seen = p->now;
    pthread_mutex_unlock(&p->lock);
    return seen;
}

static void progress_cancel_after(progress_state *p, int64_t bytes) {
    pthread_mutex_lock(&p->lock);
    p->now.cancel_after = bytes;
    pthread_mutex_unlock(&p->lock);
}

typedef struct {
    size_t bytes;
    int chunks;
    int stop;
} sink;

typedef struct {
    pthread_mutex_t lock;
    sink now;
} sink_state;

#define SINK_STATE_INIT {PTHREAD_MUTEX_INITIALIZER, {0, 0, 0}}

static int on_write(const void *data, size_t length, void *userdata) {
    sink_state *s = userdata;
    int stop;
    (void)data;
    pthread_mutex_lock(&s->lock);
    s->now.bytes += length;
    s->now.chunks++;
    stop = s->now.stop;
    pthread_mutex_unlock(&s->lock);
    return stop;
}

/* What the write callback has seen so far, as a copy taken under the lock. */
static sink sink_seen(sink_state *s) {
    sink seen;
    pthread_mutex_lock(&s->lock);
    seen = s->now;
    pthread_mutex_unlock(&s->lock);
    return seen;
}

static void sink_stop(sink_state *s) {
    pthread_mutex_lock(&s->lock);
    s->now.stop = 1;
    pthread_mutex_unlock(&s->lock);
}

static drupal_client *admin_client(void) {
    drupal_client *c = new_client();
    CHECK_CODE(drupal_client_set_basic_auth(c, "admin", "admin"), DRUPAL_OK);
    return c;
}

/* Uploads path; returns the file's id and URL (caller frees the URL), or NULL. */
static char *upload(drupal_client *c, const char *path, const char *filename, char *fid, size_t fid_size) {
    drupal_response *r = NULL;
    json_t *file = NULL, *uri;
    int64_t id = 0;
    char *url = NULL;
    CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", path, filename, NULL), DRUPAL_OK);
    if (drupal_response_json(&file, r) == DRUPAL_OK) {
        drupal_json_field_int(&id, file, "fid");
        snprintf(fid, fid_size, "%lld", (long long)id);
        uri = json_array_get(json_object_get(file, "uri"), 0);
        if (json_string_value(json_object_get(uri, "url"))) url = strdup(json_string_value(json_object_get(uri, "url")));
        json_decref(file);
    }
    drupal_response_free(r);
    return url;
}

static void test_upload_from_path(void) {
    drupal_client *c = admin_client();
    drupal_response *r = NULL;
    drupal_transfer_options o = DRUPAL_TRANSFER_OPTIONS_INIT;
    progress_state p = PROGRESS_STATE_INIT;
    json_t *file = NULL;
    const char *name = NULL;
    int64_t size = 0;
    char path[512];
    waiter w;
    fake_reset();
    path_in(path, sizeof path, "big.png");
    make_file(path, 300000);
    o.progress = on_progress;
    o.progress_userdata = &p;
    CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", path, NULL, &o), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    CHECK_CODE(drupal_response_json(&file, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_string(&name, file, "filename"), DRUPAL_OK);
    CHECK_STR(name, "big.png");
    CHECK_CODE(drupal_json_field_int(&size, file, "filesize"), DRUPAL_OK);
    CHECK_INT(size, 300000);
    json_decref(file);
    drupal_response_free(r);
    CHECK(progress_seen(&p).calls > 0 && progress_seen(&p).monotonic);
    CHECK_INT(progress_seen(&p).last_done, 300000);
    CHECK_INT(progress_seen(&p).last_total, 300000);

    /* Async, named explicitly, non-ASCII kept as UTF-8. */
    ASYNC(w, drupal_file_upload_path(NULL, c, "node", "article", "field_image", path, "caf\xc3\xa9 \xc3\xa9t\xc3\xa9.png",
                                     NULL, waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_OK);
    if (w.response && drupal_response_json(&file, w.response) == DRUPAL_OK) {
        CHECK_CODE(drupal_json_field_string(&name, file, "filename"), DRUPAL_OK);
        CHECK_STR(name, "caf\xc3\xa9 \xc3\xa9t\xc3\xa9.png");
        json_decref(file);
    }
    waiter_clear(&w);

    /* Cancelled by the progress callback. */
    path_in(path, sizeof path, "huge.png");
    make_file(path, 3000000);
    progress_cancel_after(&p, 100000);
    CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", path, NULL, &o), DRUPAL_E_CANCELLED);
    drupal_response_free(r);
    drupal_client_free(c);
}

static void test_upload_refusals(void) {
    drupal_client *c = admin_client();
    drupal_response *r = (drupal_response *)&c;
    drupal_transfer_options o = DRUPAL_TRANSFER_OPTIONS_INIT;
    sink_state s = SINK_STATE_INIT;
    char path[512];
    const char *bad_names[] = {"a\"b.png", "a\r\nX-Evil: 1.png", "dir/", "tab\t.png", ""};
    size_t i;
    path_in(path, sizeof path, "small.png");
    make_file(path, 100);
    for (i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
        CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", path, bad_names[i], NULL),
                   DRUPAL_E_INVALID_ARGUMENT);
        CHECK(r == NULL);
    }
    CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", dir, NULL, NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "not a regular file") != NULL);
    CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", "/no/such/file.png", NULL, NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", NULL, NULL, NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    o.write = on_write;
    o.write_userdata = &s;
    CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", path, NULL, &o),
               DRUPAL_E_INVALID_ARGUMENT);
    o.write = NULL;
    o.version = 7;
    CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", path, NULL, &o),
               DRUPAL_E_INVALID_ARGUMENT);
    drupal_client_free(c);
}

/* Makes a directory where the download is to end: its rename fails (EISDIR). */
static int make_directory_at_target(int64_t done, int64_t total, void *userdata) {
    (void)done;
    (void)total;
    mkdir((const char *)userdata, 0755);
    return 0;   /* go on */
}

static void test_downloads(void) {
    drupal_client *c = admin_client(), *small = NULL;
    drupal_response *r = NULL;
    drupal_transfer_options o = DRUPAL_TRANSFER_OPTIONS_INIT;
    drupal_client_options co = DRUPAL_CLIENT_OPTIONS_INIT;
    progress_state p = PROGRESS_STATE_INIT;
    sink_state s = SINK_STATE_INIT;
    char source[512], target[512], fid[32];
    char *url;
    size_t length = 99;
    waiter w;
    fake_reset();
    path_in(source, sizeof source, "photo.png");
    make_file(source, 200000);
    url = upload(c, source, NULL, fid, sizeof fid);
    CHECK(url != NULL);
    if (url == NULL) return;
    path_in(target, sizeof target, "copy.png");

    o.progress = on_progress;
    o.progress_userdata = &p;
    CHECK_CODE(drupal_file_download_sync(&r, c, url, target, &o), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    drupal_response_body(r, &length);
    CHECK_INT(length, 0);
    drupal_response_free(r);
    CHECK(same_content(source, target));
    CHECK_INT(part_files("copy.png"), 0);
    CHECK_INT(progress_seen(&p).last_done, 200000);
    CHECK_INT(progress_seen(&p).last_total, 200000);
    unlink(target);

    /* By file entity, to a write callback, async. */
    o.progress = NULL;
    o.write = on_write;
    o.write_userdata = &s;
    ASYNC(w, drupal_file_entity_download(NULL, c, fid, NULL, &o, waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_OK);
    waiter_clear(&w);
    CHECK_INT(sink_seen(&s).bytes, 200000);
    CHECK(sink_seen(&s).chunks > 1);
    sink_stop(&s);
    CHECK_CODE(drupal_file_download_sync(&r, c, url, NULL, &o), DRUPAL_E_CANCELLED);
    drupal_response_free(r);

    /* The size cap: refused, and nothing left behind; so for a 404. */
    co.max_body_size = 10000;
    CHECK_CODE(drupal_client_new(&small, base_url(), &co), DRUPAL_OK);
    CHECK_CODE(drupal_file_download_sync(&r, small, url, target, NULL), DRUPAL_E_TOO_LARGE);
    drupal_response_free(r);
    CHECK(!exists(target));
    CHECK_INT(part_files("copy.png"), 0);
    CHECK_CODE(drupal_file_download_sync(&r, small, "/sites/default/files/nope.png", target, NULL), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 404);
    drupal_response_free(r);
    CHECK(!exists(target));
    CHECK_INT(part_files("copy.png"), 0);
    CHECK_CODE(drupal_file_entity_download_sync(&r, small, "999", target, NULL), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 404);
    drupal_response_free(r);

    /* The download's own file failing: DRUPAL_E_FILE with the system's error number. */
    o.write = NULL;
    o.progress = make_directory_at_target;
    o.progress_userdata = target;
    CHECK_CODE(drupal_file_download_sync(&r, c, url, target, &o), DRUPAL_E_FILE);
    CHECK_INT(drupal_response_os_error(r), EISDIR);
    CHECK(strstr(drupal_response_error_message(r), strerror(EISDIR)) != NULL);
    drupal_response_free(r);
    CHECK_INT(part_files("copy.png"), 0);
    rmdir(target);
    CHECK_INT(drupal_response_os_error(NULL), 0);
    CHECK_CODE(drupal_file_download_sync(&r, small, "/sites/default/files/nope.png", target, NULL), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_os_error(r), 0);
    drupal_response_free(r);
    o.progress = NULL;

    /* Bad input: nothing sent. */
    o.write = on_write;
    r = (drupal_response *)&r;
    CHECK_CODE(drupal_file_download_sync(&r, c, url, target, &o), DRUPAL_E_INVALID_ARGUMENT);  /* both */
    CHECK(r == NULL);
    CHECK_CODE(drupal_file_download_sync(&r, c, url, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);  /* neither */
    CHECK_CODE(drupal_file_download_sync(&r, c, "https://elsewhere.example/x.png", target, NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_file_download_sync(&r, c, "", target, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_file_download_sync(&r, c, url, "", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_file_entity_download_sync(&r, c, "../1", target, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_file_download(NULL, c, url, target, NULL, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    free(url);
    drupal_client_free(small);
    drupal_client_free(c);
}

/* A transfer's progress callback is one of its client's callbacks: a _sync call there is refused,
 * and the client freed there is freed once the call ends, without a deadlock. */
typedef struct {
    waiter w;   /* first member: the call's callback gets the waiter */
    drupal_client *client;
    int freed;
    drupal_code sync_code;
} freeing_progress;

static int free_on_progress(int64_t done, int64_t total, void *userdata) {
    freeing_progress *f = userdata;
    drupal_response *r = NULL;
    drupal_code sync_code;
    int first;
    (void)done;
    (void)total;
    /* freed and sync_code under check_lock: the test reads them under it (see progress_seen). */
    pthread_mutex_lock(&check_lock);
    first = !f->freed;
    f->freed = 1;
    pthread_mutex_unlock(&check_lock);
    if (!first) return 0;
    sync_code = drupal_entity_get_sync(&r, f->client, "node", "1");
    drupal_response_free(r);
    pthread_mutex_lock(&check_lock);
    f->sync_code = sync_code;
    pthread_mutex_unlock(&check_lock);
    drupal_client_free(f->client);
    return 0;
}

static void test_free_from_a_progress_callback(void) {
    drupal_client *c = admin_client();
    drupal_transfer_options o = DRUPAL_TRANSFER_OPTIONS_INIT;
    freeing_progress f;
    char source[512], target[512], fid[32];
    char *url;
    drupal_code sync_code;
    int freed;
    fake_reset();
    path_in(source, sizeof source, "freed.png");
    path_in(target, sizeof target, "freed-copy.png");
    make_file(source, 200000);
    url = upload(c, source, NULL, fid, sizeof fid);
    CHECK(url != NULL);
    if (url == NULL) return;
    drupal_client_free(c);

    memset(&f, 0, sizeof f);
    f.client = admin_client();
    f.sync_code = DRUPAL_E_INTERNAL;
    o.progress = free_on_progress;
    o.progress_userdata = &f;
    waiter_init(&f.w);
    CHECK_CODE(drupal_file_download(NULL, f.client, url, target, &o, waiter_callback, &f.w), DRUPAL_OK);
    CHECK(waiter_wait(&f.w, 10) != -1);
    pthread_mutex_lock(&check_lock);
    freed = f.freed;
    sync_code = f.sync_code;
    pthread_mutex_unlock(&check_lock);
    CHECK(freed);
    CHECK_INT(sync_code, DRUPAL_E_STATE);
    waiter_clear(&f.w);
    free(url);
}

static void test_private_files(void) {
    drupal_client *anonymous = new_client(), *owner = new_client();
    drupal_response *r = NULL;
    json_t *made = NULL;
    char target[512], fid[32];
    const char *url;
    FILE *f;
    char content[64] = "";
    fake_reset();
    CHECK_CODE(fake_control_at(base_url(), "POST", "/__fake/private-file",
                               "{\"name\": \"report.txt\", \"uid\": 2, \"data_base64\": \"c2VjcmV0IHJlcG9ydA==\"}", &made),
               DRUPAL_OK);
    if (!made) return;
    url = json_string_value(json_object_get(made, "url"));
    snprintf(fid, sizeof fid, "%lld", (long long)json_integer_value(json_object_get(made, "fid")));
    path_in(target, sizeof target, "report.txt");
    CHECK_CODE(drupal_file_download_sync(&r, anonymous, url, target, NULL), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 403);
    drupal_response_free(r);
    CHECK(!exists(target));
    CHECK_CODE(drupal_login_sync(&r, owner, "editor", "editor"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_file_entity_download_sync(&r, owner, fid, target, NULL), DRUPAL_OK);
    drupal_response_free(r);
    f = fopen(target, "rb");
    if (f) {
        CHECK(fgets(content, sizeof content, f) != NULL);
        fclose(f);
    }
    CHECK_STR(content, "secret report");
    unlink(target);
    json_decref(made);
    drupal_client_free(anonymous);
    drupal_client_free(owner);
}

/* Linux file names are bytes, not always UTF-8: a Latin-1 "caf\xe9.png" (from an old archive) is
 * uploaded from and downloaded to as it is. The name sent to Drupal must be text: such a base name
 * needs an explicit filename. Messages show the bytes escaped. */
static void test_paths_that_are_not_utf8(void) {
    drupal_client *c = admin_client();
    drupal_response *r = (drupal_response *)&c;
    char source[512], target[512], by_id[512], missing[512], fid[32];
    const char *message;
    char *url;
    fake_reset();
    path_in(source, sizeof source, "caf\xe9.png");
    make_file(source, 50000);
    CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", source, NULL, NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    message = drupal_last_error();
    CHECK(strstr(message, "caf\\xE9.png") != NULL && strstr(message, "filename") != NULL);
    CHECK(strchr(message, '\xe9') == NULL);
    url = upload(c, source, "cafe.png", fid, sizeof fid);
    CHECK(url != NULL && strstr(url, "cafe.png") != NULL);
    if (url == NULL) {
        drupal_client_free(c);
        return;
    }

    path_in(target, sizeof target, "t\xe9l\xe9" "charg\xe9.png");
    CHECK_CODE(drupal_file_download_sync(&r, c, url, target, NULL), DRUPAL_OK);
    drupal_response_free(r);
    CHECK(same_content(source, target));
    CHECK_INT(part_files("t\xe9l\xe9" "charg\xe9.png"), 0);
    path_in(by_id, sizeof by_id, "\xff\xfe.png");
    CHECK_CODE(drupal_file_entity_download_sync(&r, c, fid, by_id, NULL), DRUPAL_OK);
    drupal_response_free(r);
    CHECK(same_content(source, by_id));

    /* Refused before anything is sent: a missing directory, named with its bytes escaped. */
    path_in(missing, sizeof missing, "gon\xe9/x.png");
    r = (drupal_response *)&c;
    CHECK_CODE(drupal_file_download_sync(&r, c, url, missing, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK(strstr(drupal_last_error(), "gon\\xE9") != NULL);
    CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", missing, "x.png", NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "gon\\xE9/x.png") != NULL);
    /* An explicit filename is the caller's text: it must be UTF-8. */
    CHECK_CODE(drupal_file_upload_path_sync(&r, c, "node", "article", "field_image", source, "caf\xe9.png", NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    unlink(source);
    unlink(target);
    unlink(by_id);
    free(url);
    drupal_client_free(c);
}

/* A download replaces its file by a rename: the new file got 0666 less the umask, so a private
 * 0600 file became readable by others and an executable lost its x bits. It keeps the permission
 * bits of the file it replaces (as `curl -o`, which writes in place), never set-user-ID; a new
 * file still gets 0666 less the umask. */
static void test_a_download_keeps_the_permissions_of_the_file_it_replaces(void) {
    drupal_client *c = admin_client();
    drupal_response *r = NULL;
    const mode_t modes[][2] = {{0600, 0600}, {0755, 0755}, {0640, 0640}, {0400, 0400}, {04755, 0755}};
    char source[512], target[512], fid[32];
    struct stat info;
    mode_t mask;
    size_t i;
    char *url;
    fake_reset();
    path_in(source, sizeof source, "kept.png");
    make_file(source, 20000);
    url = upload(c, source, NULL, fid, sizeof fid);
    CHECK(url != NULL);
    if (url == NULL) {
        drupal_client_free(c);
        return;
    }
    path_in(target, sizeof target, "kept-copy.png");
    for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        FILE *f = fopen(target, "wb");
        CHECK(f != NULL);
        if (f == NULL) break;
        fputs("old content", f);
        fclose(f);
        CHECK_INT(chmod(target, modes[i][0]), 0);
        CHECK_CODE(drupal_file_download_sync(&r, c, url, target, NULL), DRUPAL_OK);
        drupal_response_free(r);
        CHECK(same_content(source, target));
        CHECK_INT(stat(target, &info), 0);
        CHECK_INT(info.st_mode & 07777, modes[i][1]);
        unlink(target);
    }
    mask = umask(022);
    umask(mask);
    CHECK_CODE(drupal_file_download_sync(&r, c, url, target, NULL), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_INT(stat(target, &info), 0);
    CHECK_INT(info.st_mode & 07777, 0666 & ~mask);
    unlink(target);
    free(url);
    drupal_client_free(c);
}

int main(void) {
    char command[300];
    snprintf(dir, sizeof dir, "/tmp/drupalsdk-files-%ld", (long)getpid());
    mkdir(dir, 0700);
    test_upload_from_path();
    test_upload_refusals();
    test_downloads();
    test_private_files();
    test_paths_that_are_not_utf8();
    test_a_download_keeps_the_permissions_of_the_file_it_replaces();
    test_free_from_a_progress_callback();
    snprintf(command, sizeof command, "rm -rf %s", dir);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_summary();
}
