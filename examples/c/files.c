/*
 * files.c - files with libdrupalsdk's C API: upload a file from disk to an image field (streamed,
 * with progress), attach it to a new article, download it back by its file entity (to a path,
 * and to a callback that checksums it as it arrives), then delete the article.
 *
 *   files [BASE_URL]      (or DRUPAL_BASE_URL; DRUPAL_USER / DRUPAL_PASSWORD, default admin/admin;
 *                         DRUPAL_CA_FILE=ca.pem for an HTTPS site with a private CA)
 */
#define _POSIX_C_SOURCE 200809L  /* mkstemp */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <drupalsdk.h>

#define FILE_SIZE 300000

static int fail(const char *what, drupal_code code, const drupal_response *response) {
    fprintf(stderr, "%s failed: %s", what, drupal_code_name(code));
    if (response == NULL) fprintf(stderr, ": %s\n", drupal_last_error());
    else fprintf(stderr, " (HTTP %d): %s\n", drupal_response_status(response), drupal_response_error_message(response));
    return 1;
}

static const char *env_or(const char *name, const char *fallback) {
    const char *value = getenv(name);
    return value && value[0] ? value : fallback;
}

/* The progress callback: a line at each quarter (it runs on the thread moving the bytes). */
static int show_progress(int64_t done, int64_t total, void *userdata) {
    int *quarter = userdata;
    if (total > 0 && done * 4 / total > *quarter) {
        *quarter = (int)(done * 4 / total);
        printf("  %s %" PRId64 " of %" PRId64 " bytes\n", *quarter == 4 ? "done:" : "sent", done, total);
    }
    return 0;  /* nonzero would cancel the upload */
}

/* The write callback of a download: a checksum of the content as it arrives, nothing kept. */
struct checksum { uint32_t sum; size_t length; };

static int add_to_checksum(const void *data, size_t length, void *userdata) {
    struct checksum *c = userdata;
    const unsigned char *bytes = data;
    size_t i;
    for (i = 0; i < length; i++) c->sum = c->sum * 31 + bytes[i];
    c->length += length;
    return 0;  /* nonzero would stop the download */
}

/* A file to upload: a PNG signature, then a pattern. Returns its checksum. */
static int write_sample(const char *path, struct checksum *expected) {
    FILE *f = fopen(path, "wb");
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char block[1000];
    size_t i, written = 0;
    if (f == NULL) return 1;
    memset(expected, 0, sizeof *expected);
    fwrite(signature, 1, sizeof signature, f);
    add_to_checksum(signature, sizeof signature, expected);
    for (i = 0; i < sizeof block; i++) block[i] = (unsigned char)(i * 7);
    for (written = sizeof signature; written < FILE_SIZE; written += sizeof block) {
        size_t n = FILE_SIZE - written < sizeof block ? FILE_SIZE - written : sizeof block;
        fwrite(block, 1, n, f);
        add_to_checksum(block, n, expected);
    }
    return fclose(f) != 0;
}

/* Reads an id field (fid, nid) of the entity in a response, as text, and frees the response. */
static drupal_code take_id(drupal_response **response, const char *field, char *out, size_t size) {
    json_t *entity = NULL;
    int64_t id = 0;
    drupal_code code = drupal_response_json(&entity, *response);
    if (code == DRUPAL_OK) code = drupal_json_field_int(&id, entity, field);
    json_decref(entity);
    drupal_response_free(*response);
    *response = NULL;
    if (code == DRUPAL_OK) snprintf(out, size, "%" PRId64, id);
    return code;
}

static int same_file(const char *path, const struct checksum *expected) {
    struct checksum got = {0, 0};
    unsigned char buffer[4096];
    size_t n;
    FILE *f = fopen(path, "rb");
    if (f == NULL) return 0;
    while ((n = fread(buffer, 1, sizeof buffer, f)) > 0) add_to_checksum(buffer, n, &got);
    fclose(f);
    return got.sum == expected->sum && got.length == expected->length;
}

int main(int argc, char **argv) {
    const char *base_url = argc > 1 ? argv[1] : getenv("DRUPAL_BASE_URL");
    char upload_path[] = "/tmp/drupalsdk-example-XXXXXX", copy_path[64], fid[32], nid[32] = "";
    drupal_transfer_options options = DRUPAL_TRANSFER_OPTIONS_INIT;
    drupal_client_options client_options = DRUPAL_CLIENT_OPTIONS_INIT;
    struct checksum expected, streamed = {0, 0};
    drupal_client *client = NULL;
    drupal_response *r = NULL;
    json_t *node = NULL;
    int shown = 0, status = 1, fd;
    drupal_code code;

    /* DRUPAL_CA_FILE: the CA certificates of an HTTPS site with a private CA (NULL: the system's). */
    client_options.ca_bundle = env_or("DRUPAL_CA_FILE", NULL);
    if (base_url == NULL) {
        fprintf(stderr, "usage: %s BASE_URL   (or set DRUPAL_BASE_URL)\n", argv[0]);
        return 2;
    }
    if (drupal_client_new(&client, base_url, &client_options) != DRUPAL_OK) {
        fprintf(stderr, "%s: %s\n", drupal_code_name(drupal_last_error_code()), drupal_last_error());
        return 2;
    }
    drupal_client_set_basic_auth(client, env_or("DRUPAL_USER", "admin"), env_or("DRUPAL_PASSWORD", "admin"));
    fd = mkstemp(upload_path);
    if (fd < 0 || close(fd) != 0 || write_sample(upload_path, &expected) != 0) {
        fprintf(stderr, "cannot write %s\n", upload_path);
        drupal_client_free(client);
        return 1;
    }
    snprintf(copy_path, sizeof copy_path, "%s.copy", upload_path);

    /* 1. Upload: streamed from disk (never read whole), with progress; the answer is the file entity. */
    printf("uploading %s as example.png\n", upload_path);
    options.progress = show_progress;
    options.progress_userdata = &shown;
    code = drupal_file_upload_path_sync(&r, client, "node", "article", "field_image", upload_path, "example.png",
                                        &options);
    if (code != DRUPAL_OK) { fail("upload", code, r); goto done; }
    code = take_id(&r, "fid", fid, sizeof fid);
    if (code != DRUPAL_OK) { fail("reading the file entity", code, NULL); goto done; }
    printf("file entity %s\n", fid);

    /* 2. An article that shows it: the image field references the file entity by id. */
    code = drupal_json_entity_new(&node, "node", "article");
    if (code == DRUPAL_OK) code = drupal_json_field_set_string(node, "title", "With an image from C");
    if (code == DRUPAL_OK) code = drupal_json_field_set_target_id(node, "field_image", strtoll(fid, NULL, 10));
    if (code == DRUPAL_OK) code = drupal_entity_create_json_sync(&r, client, "node", node);
    if (code != DRUPAL_OK) { fail("creating the article", code, r); goto done; }
    code = take_id(&r, "nid", nid, sizeof nid);
    if (code != DRUPAL_OK) { fail("reading the article", code, NULL); goto done; }
    printf("article %s references file %s\n", nid, fid);

    /* 3. Download by file entity (its uri is read first) to a path: written to a part file of its
     *    own ("<path>.<random>.part") and renamed when complete, so a failed download leaves
     *    nothing behind. */
    code = drupal_file_entity_download_sync(&r, client, fid, copy_path, NULL);
    if (code != DRUPAL_OK) { fail("download to a path", code, r); goto done; }
    drupal_response_free(r);
    r = NULL;
    printf("downloaded to %s: %s\n", copy_path, same_file(copy_path, &expected) ? "same bytes" : "DIFFERENT");
    if (!same_file(copy_path, &expected)) goto done;

    /* 4. The same to a callback, which sees each piece as it arrives. */
    options = (drupal_transfer_options)DRUPAL_TRANSFER_OPTIONS_INIT;
    options.write = add_to_checksum;
    options.write_userdata = &streamed;
    code = drupal_file_entity_download_sync(&r, client, fid, NULL, &options);
    if (code != DRUPAL_OK) { fail("download to a callback", code, r); goto done; }
    drupal_response_free(r);
    r = NULL;
    printf("streamed %zu bytes: %s\n", streamed.length,
           streamed.sum == expected.sum && streamed.length == expected.length ? "same bytes" : "DIFFERENT");
    if (streamed.sum != expected.sum || streamed.length != expected.length) goto done;
    status = 0;

done:
    /* 5. Clean up, also after a failure above: the article (the file entity goes with Drupal's
     *    file usage clean-up). */
    drupal_response_free(r);
    r = NULL;
    if (nid[0] != '\0') {
        code = drupal_entity_delete_sync(&r, client, "node", nid);
        if (code == DRUPAL_OK) printf("deleted article %s\n", nid);
        else status = fail("deleting the article", code, r);
        drupal_response_free(r);
    }
    if (status == 0) printf("done\n");
    json_decref(node);
    drupal_client_free(client);
    remove(upload_path);
    remove(copy_path);
    return status;
}
