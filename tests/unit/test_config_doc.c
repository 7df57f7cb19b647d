/* SPDX-License-Identifier: MIT
 * docs/configuration.md must list exactly the RDMX_* table of
 * src/util/config_table.h. With --print, write the table to regenerate it. */
#include "util/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    char *table = NULL, *doc = NULL;
    size_t tlen = 0;
    FILE *m = open_memstream(&table, &tlen);
    rx_config_print_markdown(m);
    fclose(m);
    if (argc > 1 && !strcmp(argv[1], "--print")) {
        fputs(table, stdout);
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: %s docs/configuration.md | --print\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    size_t dlen = 0;
    FILE *d = open_memstream(&doc, &dlen);
    int ch;
    while ((ch = fgetc(f)) != EOF)
        fputc(ch, d);
    fclose(f);
    fclose(d);
    int ok = strstr(doc, table) != NULL;
    if (!ok)
        fprintf(stderr, "%s does not contain the current RDMX_* table; regenerate it with\n"
                        "  test_config_doc --print and paste it in place of the old table\n", argv[1]);
    else
        printf("config doc: table of %zu bytes matches\n", tlen);
    free(table);
    free(doc);
    return !ok;
}
