/* BUG repro: drupal_client_free races with the client's curl thread: CurlEngine.stop() calls
 * curl_multi_wakeup(multi) after the engine thread may already have run shutDown() ->
 * curl_multi_cleanup(multi): a use after free. Run under valgrind (ASan can't see it: the
 * read happens inside uninstrumented libcurl). No server needed. */
#include <stdio.h>
#include <drupalsdk.h>
int main(void) {
    int i;
    for (i = 0; i < 20; i++) {
        drupal_client *c = NULL;
        drupal_response *r = NULL;
        drupal_client_new(&c, "http://127.0.0.1:1", NULL);  /* nothing listens: fails at once */
        drupal_entity_get_sync(&r, c, "node", "1");         /* starts the client's curl thread */
        drupal_response_free(r);
        drupal_client_free(c);                              /* <- invalid read in curl_multi_wakeup */
    }
    puts("done");
    return 0;
}
