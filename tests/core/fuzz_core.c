/* A libFuzzer harness for the compiled core's C code (run by hand; not part of the build).
 *
 * Build and run (clang with libFuzzer), from the project root:
 *
 *   .venv/bin/python -c "from pdnkit.core.pack import pack_table; from pdnkit.rules import \
 *       list_variants, Position; import pathlib; d = pathlib.Path('/tmp/pdnkit-fuzz'); \
 *       d.mkdir(exist_ok=True); [(d / f'{i}.bin').write_bytes(pack_table(r).tobytes()) \
 *       for i, r in enumerate(list_variants())]"
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
 *       -Ipdnkit/core/src tests/core/fuzz_core.c \
 *       pdnkit/core/src/movegen.c pdnkit/core/src/replay.c pdnkit/core/src/table.c -o /tmp/fuzz_core
 *   PDNKIT_FUZZ_TABLES=/tmp/pdnkit-fuzz /tmp/fuzz_core -max_total_time=600 /tmp/corpus
 *
 * An input is: a byte choosing the variant, a byte of modes (movetext or one move per item,
 * 1-, 2- or 4-byte characters, a start from the input's next bytes or the blob fuzzed), then the
 * text (or the words to change in the variant's table).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "replay.h"

#define MAXTABLES 32

static int32_t *blobs[MAXTABLES];
static size_t blob_len[MAXTABLES];
static Table *tables[MAXTABLES];
static int ntables;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *dir = getenv("PDNKIT_FUZZ_TABLES");
    if (!dir) {
        fprintf(stderr, "set PDNKIT_FUZZ_TABLES to a folder of packed tables (0.bin, 1.bin ...)\n");
        exit(2);
    }
    for (ntables = 0; ntables < MAXTABLES; ntables++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%d.bin", dir, ntables);
        FILE *f = fopen(path, "rb");
        if (!f)
            break;
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        blobs[ntables] = malloc((size_t)n);
        blob_len[ntables] = (size_t)n / 4;
        if (fread(blobs[ntables], 1, (size_t)n, f) != (size_t)n)
            exit(2);
        fclose(f);
        tables[ntables] = malloc(sizeof(Table));
        const char *why;
        if (table_from_blob(tables[ntables], blobs[ntables], blob_len[ntables], &why) < 0) {
            fprintf(stderr, "table %d: %s\n", ntables, why);
            exit(2);
        }
    }
    return 0;
}

static bb_t take_board(const uint8_t **d, size_t *n) {
    bb_t x = 0;
    for (int i = 0; i < 16 && *n; i++, (*d)++, (*n)--)
        x |= (bb_t)**d << (8 * i);
    return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2 || !ntables)
        return 0;
    int v = data[0] % ntables, mode = data[1];
    data += 2;
    size -= 2;
    const Table *t = tables[v];
    Table *mutated = NULL;
    if (mode & 0x40) { /* fuzz the table: change words of the blob */
        int32_t *copy = malloc(blob_len[v] * 4);
        memcpy(copy, blobs[v], blob_len[v] * 4);
        for (; size >= 5; data += 5, size -= 5) {
            size_t at = ((size_t)data[0] << 8 | data[1]) % blob_len[v];
            copy[at] = (int32_t)((uint32_t)data[2] << 16 | (uint32_t)data[3] << 8 | data[4]) -
                       (data[2] & 0x80 ? 0x1000000 : 0);
        }
        mutated = malloc(sizeof(Table));
        const char *why;
        int rc = table_from_blob(mutated, copy, blob_len[v], &why);
        free(copy);
        if (rc < 0) {
            free(mutated);
            return 0;
        }
        t = mutated;
    }
    Pos p;
    memset(&p, 0, sizeof p);
    p.csq[0] = p.csq[1] = -1;
    if (mode & 0x20) { /* a start from the input: disjoint pieces on the board */
        bb_t w = take_board(&data, &size) & t->board, b = take_board(&data, &size) & t->board;
        bb_t k = take_board(&data, &size);
        p.w = w;
        p.b = b & ~w;
        p.k = k & (p.w | p.b);
        p.side = mode & 1;
    } else { /* the first rows of each side */
        int rows = t->nsq / 3;
        p.b = BIT(rows) - 1;
        p.w = (t->board >> (t->nsq - rows)) << (t->nsq - rows);
    }
    if (!(mode & 0x40)) {
        uint64_t n;
        perft(t, &p, 2, mode & 2 ? DUP_ORDER : DUP_SET, &n);
    }
    int kind = 1 + ((mode >> 2) & 3) % 3;
    kind = kind == 3 ? 4 : kind;
    size_t chars = size / (size_t)kind;
    uint32_t *aligned = malloc(size + 4); /* CPython's string data is aligned to its kind */
    memcpy(aligned, data, size);
    data = (const uint8_t *)aligned;
    Text text = {kind, data, (long)chars};
    Replay r;
    replay_init(&r);
    if (mode & 0x10) { /* one move per item: split at NULs */
        Text items[64];
        long nitems = 0, start = 0;
        for (long i = 0; i <= (long)chars && nitems < 64; i++)
            if (i == (long)chars || ((kind == 1 && data[i] == 0))) {
                items[nitems].kind = kind;
                items[nitems].data = (const uint8_t *)data + start * kind;
                items[nitems].len = i - start;
                nitems++;
                start = i + 1;
            }
        replay_run(t, &p, items, nitems, 0, 0, &r);
    } else {
        replay_run(t, &p, &text, 1, 1, mode & 0x80 ? (long)(chars / 2) : 0, &r);
    }
    replay_free(&r);
    free(aligned);
    free(mutated);
    return 0;
}
