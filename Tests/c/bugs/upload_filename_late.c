/* BUG repro (upload-filename-late): drupal_file_upload validates the file name only after the call
 * started: it returns DRUPAL_OK and the callback gets DRUPAL_E_INVALID_ARGUMENT; the _sync variant
 * returns DRUPAL_E_INVALID_ARGUMENT with a non-NULL *out. Exits 1 while the bug is there. */
#include <stdio.h>
#include <unistd.h>
#include <drupalsdk.h>
static int ran;
static void cb(drupal_code code, drupal_response *r, void *ud) {
    (void)ud;
    ran = 1;
    printf("callback ran: %s (%s)\n", drupal_code_name(code), drupal_response_error_message(r));
}
int main(void) {
    drupal_client *c = NULL;
    drupal_response *out = NULL;
    drupal_code rc;
    drupal_client_new(&c, "http://127.0.0.1:1", NULL);  /* no server needed */
    rc = drupal_file_upload(NULL, c, "node", "article", "field_image", "a\r\n.png", "x", 1, cb, NULL);
    printf("drupal_file_upload returned %s\n", drupal_code_name(rc));
    sleep(1);
    rc = drupal_file_upload_sync(&out, c, "node", "article", "field_image", "a\".png", "x", 1);
    printf("drupal_file_upload_sync returned %s, out=%p\n", drupal_code_name(rc), (void *)out);
    drupal_response_free(out);
    drupal_client_free(c);
    return ran || out != NULL ? 1 : 0;
}
