/* fivecard.play._dealer: the compiled execution of the dealer game's sums.
 *
 * Nothing here knows poker. The Python code (fivecard.play.dealer) builds
 * the tables: per set of at most four deck positions, the hands (rows of
 * five ascending positions) that hold it, counted by level (a number below
 * m: the hand's strength, in order), and per hand its level. Given those,
 * per deal (five positions) and per subset T of it, two sums over the hands
 * that hold T,
 *
 *     sum of below[level]  and  sum of f[level],
 *
 * where f counts the hands of none of the deal's positions by level
 * (inclusion-exclusion over the deal's subsets) and below[l] = f[0] + ... +
 * f[l - 1]; then, per subset K, the signed sum over its supersets T, which
 * counts the hands that hold K and none of the deal's other positions.
 *
 * subsets() builds the tables' counts from rows sorted by level.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "_buffers.h"

#define MAX_DECK 64
#define SETS_SIZES 5 /* sets of 0 to 4 positions have counts; a five is one hand */
#define LEVELS 65536 /* a uint16 level is below it: f and below have room for any */

typedef struct {
    PyObject_HEAD
    int n;             /* deck positions */
    Py_ssize_t m;      /* levels */
    Py_ssize_t sets;   /* sets of 0 to 4 positions: C(n, 0) + ... + C(n, 4) */
    Py_ssize_t base[SETS_SIZES]; /* the first set of each size */
    const int64_t *offsets;  /* sets + 1: each set's entries */
    const uint16_t *levels;  /* per entry: a level */
    const uint32_t *counts;  /* per entry: the hands of that level that hold the set */
    Py_ssize_t entries;
    const uint16_t *fives;   /* per hand (its combinatorial number): its level */
    Py_ssize_t nfives;
    const int64_t *totals;   /* per set, then per level: two sums over its entries (see Counts) */
    int64_t choose[MAX_DECK + 1][6];
    Py_buffer views[5];
    int nviews;
} Counts;

static void fill_choose(int64_t choose[MAX_DECK + 1][6]) {
    for (int x = 0; x <= MAX_DECK; x++)
        for (int j = 0; j < 6; j++) {
            if (j == 0) choose[x][j] = 1;
            else if (x == 0) choose[x][j] = 0;
            else choose[x][j] = choose[x - 1][j - 1] + choose[x - 1][j];
        }
}

/* each subset of a deal (bit i: its i-th position): its set's number among
 * the tables' sets (at most four positions) or its hand's (all five), and
 * its size */
static void subsets_of(const Counts *t, const int64_t *deal, Py_ssize_t *id, int *size) {
    for (int mask = 0; mask < 32; mask++) {
        int k = 0;
        int64_t number = 0;
        for (int i = 0; i < 5; i++)
            if (mask >> i & 1) {
                k++;
                number += t->choose[deal[i]][k];
            }
        size[mask] = k;
        id[mask] = k < 5 ? t->base[k] + number : number;
    }
}

/* a set's entries, [*begin, *stop): checked where they are read, as the
 * tables are read, not copied (one who changes them after the counts are
 * made gets an error, not a read past them); 0 for a changed table */
static inline int entries_of(const Counts *t, Py_ssize_t id, int64_t *begin, int64_t *stop) {
    *begin = t->offsets[id];
    *stop = t->offsets[id + 1];
    if (*begin >= 0 && *begin <= *stop && *stop <= t->entries) return 1;
    *begin = *stop = 0;
    return 0;
}

/* f += sign * the hands that hold the subset, by level; in unsigned
 * arithmetic (wrapping, defined), the exact counts for tables of counts.
 * Any uint16 level is in fb (room for LEVELS). */
static inline void add_set(const Counts *t, uint32_t *fb, Py_ssize_t id, int size, uint32_t sign, int *changed) {
    if (size == 5) {
        fb[2 * (Py_ssize_t)t->fives[id]] -= sign; /* (-1) ** 5 */
        return;
    }
    if (size & 1) sign = -sign;
    int64_t begin, stop;
    if (!entries_of(t, id, &begin, &stop)) *changed = 1;
    const uint16_t *levels = t->levels;
    const uint32_t *counts = t->counts;
    for (int64_t e = begin; e < stop; e++) fb[2 * (Py_ssize_t)levels[e]] += sign * counts[e];
}

/* the sums of one deal into win and draw (32 each). fb holds f (even
 * places) and below (odd) of the deal before, whose subsets are ``before``
 * (NULL: none; f all 0): only the sets that differ are added or taken. */
static void one_deal(const Counts *t, const Py_ssize_t *id, const int *size, const Py_ssize_t *before,
                     const int *before_size, uint32_t *fb, int64_t *win, int64_t *draw, int *changed) {
    Py_ssize_t m = t->m;
    /* f: the hands of none of the deal's positions, by level */
    for (int mask = 0; mask < 32; mask++) {
        int shared = 0;
        if (before)
            for (int other = 0; other < 32 && !shared; other++)
                shared = before[other] == id[mask] && before_size[other] == size[mask];
        if (!shared) add_set(t, fb, id[mask], size[mask], 1, changed);
    }
    if (before)
        for (int other = 0; other < 32; other++) {
            int shared = 0;
            for (int mask = 0; mask < 32 && !shared; mask++)
                shared = before[other] == id[mask] && before_size[other] == size[mask];
            if (!shared) add_set(t, fb, before[other], before_size[other], (uint32_t)-1, changed);
        }
    /* below[l]: those of a lower level */
    uint32_t running = 0;
    for (Py_ssize_t l = 0; l < m; l++) {
        fb[2 * l + 1] = running;
        running += fb[2 * l];
    }
    /* per subset: the hands that hold it, weighed by below and by f; for
     * the empty set (every hand), the signed sum of the subsets' totals */
    uint64_t w[32], d[32]; /* unsigned: exact where the sums fit, defined where not */
    w[0] = d[0] = 0;
    for (int mask = 0; mask < 32; mask++) {
        Py_ssize_t row = id[mask];
        if (size[mask] == 5) {
            Py_ssize_t l = t->fives[row];
            if (l >= t->m) {
                *changed = 1;
                l = 0;
            }
            row = t->sets + l;
        }
        const int64_t *total = t->totals + 2 * row;
        w[0] += size[mask] & 1 ? -(uint64_t)total[0] : (uint64_t)total[0];
        d[0] += size[mask] & 1 ? -(uint64_t)total[1] : (uint64_t)total[1];
    }
    for (int mask = 1; mask < 32; mask++) {
        if (size[mask] == 5) {
            Py_ssize_t l = t->fives[id[mask]];
            w[mask] = (uint64_t)(int64_t)(int32_t)fb[2 * l + 1];
            d[mask] = (uint64_t)(int64_t)(int32_t)fb[2 * l];
            continue;
        }
        uint64_t sw = 0, sd = 0;
        int64_t begin, stop;
        if (!entries_of(t, id[mask], &begin, &stop)) *changed = 1;
        for (int64_t e = begin; e < stop; e++) {
            const uint32_t *at = fb + 2 * (Py_ssize_t)t->levels[e];
            uint64_t c = t->counts[e];
            sd += c * (uint64_t)(int64_t)(int32_t)at[0];
            sw += c * (uint64_t)(int64_t)(int32_t)at[1];
        }
        w[mask] = sw;
        d[mask] = sd;
    }
    /* per subset K: the signed sum over its supersets */
    for (int bit = 1; bit < 32; bit <<= 1)
        for (int mask = 0; mask < 32; mask++)
            if (!(mask & bit)) {
                w[mask] -= w[mask | bit];
                d[mask] -= d[mask | bit];
            }
    memcpy(win, w, sizeof w);
    memcpy(draw, d, sizeof d);
}

PyDoc_STRVAR(holds_doc, "holds(deals, win, draw)\n--\n\n"
"Per row of ``deals`` (int64, five ascending positions a row) and per\n"
"subset K of it (bit i: the row's i-th position): into ``win`` the hands\n"
"that hold K and none of the row's other positions, each weighed by the\n"
"hands of none of the row's positions of a lower level, and into ``draw``\n"
"weighed by those of the same level (int64, 32 a row). The GIL is\n"
"released.");

static PyObject *counts_holds(PyObject *self, PyObject *args) {
    Counts *t = (Counts *)self;
    PyObject *deals_obj, *win_obj, *draw_obj;
    if (!PyArg_ParseTuple(args, "OOO", &deals_obj, &win_obj, &draw_obj)) return NULL;
    Py_buffer deals, win, draw;
    if (buffer_items(deals_obj, &deals, PyBUF_SIMPLE, 8, -1, "deals") < 0) return NULL;
    if (buffer_items(win_obj, &win, PyBUF_WRITABLE, 8, -1, "win") < 0) {
        PyBuffer_Release(&deals);
        return NULL;
    }
    if (buffer_items(draw_obj, &draw, PyBUF_WRITABLE, 8, -1, "draw") < 0) {
        PyBuffer_Release(&deals);
        PyBuffer_Release(&win);
        return NULL;
    }
    PyObject *failed = NULL;
    int64_t *d = NULL;
    uint32_t *fb = NULL;
    Py_ssize_t rows = deals.len / (5 * 8);
    if (deals.len != rows * 5 * 8 || win.len != rows * 32 * 8 || draw.len != rows * 32 * 8) {
        failed = PyErr_Format(PyExc_ValueError, "deals: rows of 5 int64; win and draw: 32 int64 a row");
        goto done;
    }
    const Py_buffer *all[3 + 5] = {&deals, &win, &draw};
    for (int i = 0; i < t->nviews; i++) all[3 + i] = &t->views[i];
    if (buffer_apart(&win, "win", all, 3 + t->nviews) < 0 || buffer_apart(&draw, "draw", all, 3 + t->nviews) < 0) {
        failed = Py_None;
        goto done;
    }
    /* a copy, checked: another thread may write to the deals meanwhile */
    d = PyMem_RawMalloc(deals.len ? deals.len : 1);
    fb = PyMem_RawCalloc(2 * LEVELS, sizeof(uint32_t));
    if (!d || !fb) {
        failed = PyErr_NoMemory();
        goto done;
    }
    memcpy(d, deals.buf, deals.len);
    for (Py_ssize_t r = 0; r < rows; r++)
        for (int i = 0; i < 5; i++) {
            int64_t p = d[r * 5 + i];
            if (p < 0 || p >= t->n || (i && p <= d[r * 5 + i - 1])) {
                failed = PyErr_Format(PyExc_ValueError, "row %zd: five ascending positions below %d", r, t->n);
                goto done;
            }
        }
    int changed = 0;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t ids[2][32];
    int sizes[2][32];
    for (Py_ssize_t r = 0; r < rows; r++) {
        int now = r & 1;
        subsets_of(t, d + r * 5, ids[now], sizes[now]);
        one_deal(t, ids[now], sizes[now], r ? ids[!now] : NULL, sizes[!now], fb, (int64_t *)win.buf + r * 32,
                 (int64_t *)draw.buf + r * 32, &changed);
    }
    Py_END_ALLOW_THREADS
    if (changed) failed = PyErr_Format(PyExc_ValueError, "the counts' tables changed after the counts were made");
done:
    PyMem_RawFree(d);
    PyMem_RawFree(fb);
    PyBuffer_Release(&deals);
    PyBuffer_Release(&win);
    PyBuffer_Release(&draw);
    if (failed || PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* --- the type --------------------------------------------------------------- */

static int take(Counts *t, PyObject *obj, Py_ssize_t itemsize, const void **buf, Py_ssize_t *items, const char *what) {
    Py_buffer *view = &t->views[t->nviews];
    if (buffer_items(obj, view, PyBUF_SIMPLE, itemsize, -1, what) < 0) return -1;
    t->nviews++;
    *buf = view->buf;
    *items = view->len / itemsize;
    return 0;
}

static void counts_dealloc(PyObject *self) {
    Counts *t = (Counts *)self;
    for (int i = 0; i < t->nviews; i++) PyBuffer_Release(&t->views[i]);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *counts_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"n", "m", "offsets", "levels", "counts", "fives", "totals", NULL};
    int n;
    Py_ssize_t m;
    PyObject *offsets, *levels, *counts, *fives, *totals;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "inOOOOO", names, &n, &m, &offsets, &levels, &counts, &fives,
                                     &totals))
        return NULL;
    if (n < 5 || n > MAX_DECK) return PyErr_Format(PyExc_ValueError, "a deck of 5 to %d positions, not %d", MAX_DECK, n);
    if (m < 1 || m > 65536) return PyErr_Format(PyExc_ValueError, "1 to 65536 levels, not %zd", m);
    Counts *t = (Counts *)type->tp_alloc(type, 0);
    if (!t) return NULL;
    t->n = n;
    t->m = m;
    fill_choose(t->choose);
    t->sets = 0;
    for (int k = 0; k < SETS_SIZES; k++) {
        t->base[k] = t->sets;
        t->sets += t->choose[n][k];
    }
    Py_ssize_t noffsets, nlevels;
    if (take(t, offsets, 8, (const void **)&t->offsets, &noffsets, "offsets") < 0) goto fail;
    if (take(t, levels, 2, (const void **)&t->levels, &nlevels, "levels") < 0) goto fail;
    if (take(t, counts, 4, (const void **)&t->counts, &t->entries, "counts") < 0) goto fail;
    if (take(t, fives, 2, (const void **)&t->fives, &t->nfives, "fives") < 0) goto fail;
    Py_ssize_t ntotals;
    if (take(t, totals, 8, (const void **)&t->totals, &ntotals, "totals") < 0) goto fail;
    if (noffsets != t->sets + 1 || nlevels != t->entries || t->nfives != t->choose[n][5] ||
        ntotals != 2 * (t->sets + m)) {
        PyErr_Format(PyExc_ValueError, "offsets: %zd (one a set of at most four, and one); levels and counts: "
                     "one an entry; fives: %lld; totals: two a set and a level", t->sets + 1,
                     (long long)t->choose[n][5]);
        goto fail;
    }
    if (t->offsets[0] != 0 || t->offsets[t->sets] != t->entries) {
        PyErr_SetString(PyExc_ValueError, "offsets: from 0 to the number of entries");
        goto fail;
    }
    for (Py_ssize_t s = 0; s < t->sets; s++)
        if (t->offsets[s + 1] < t->offsets[s]) {
            PyErr_SetString(PyExc_ValueError, "offsets: in order");
            goto fail;
        }
    for (Py_ssize_t e = 0; e < t->entries; e++)
        if (t->levels[e] >= m || t->counts[e] > INT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "levels: below m; counts: below 2**31");
            goto fail;
        }
    /* counts of hands: a set of k positions is held by C(n - k, 5 - k) of
     * them, and the sums over them fit in int64 */
    for (int k = 0; k < SETS_SIZES; k++)
        for (Py_ssize_t s = t->base[k]; s < t->base[k] + t->choose[n][k]; s++) {
            int64_t held = 0;
            for (int64_t e = t->offsets[s]; e < t->offsets[s + 1]; e++) held += t->counts[e];
            if (held != t->choose[n - k][5 - k]) {
                PyErr_Format(PyExc_ValueError, "counts: set %zd is held by %lld hands, not %lld", s, (long long)held,
                             (long long)t->choose[n - k][5 - k]);
                goto fail;
            }
        }
    for (Py_ssize_t i = 0; i < ntotals; i++)
        if (t->totals[i] < 0 || t->totals[i] > t->choose[n][5] * t->choose[n][5]) {
            PyErr_SetString(PyExc_ValueError, "totals: each 0 to C(n, 5) ** 2");
            goto fail;
        }
    for (Py_ssize_t h = 0; h < t->nfives; h++)
        if (t->fives[h] >= m) {
            PyErr_SetString(PyExc_ValueError, "fives: below m");
            goto fail;
        }
    return (PyObject *)t;
fail:
    Py_DECREF(t);
    return NULL;
}

static PyMethodDef counts_methods[] = {
    {"holds", counts_holds, METH_VARARGS, holds_doc},
    {NULL},
};

PyDoc_STRVAR(counts_doc, "Counts(n, m, offsets, levels, counts, fives, totals)\n--\n\n"
"The hands of a deck of ``n`` positions that hold each set of at most four\n"
"positions, by level (``m`` levels): the sets in order of size, each size\n"
"by combinatorial number; ``offsets`` (int64) their entries, each a level\n"
"(``levels``, uint16) and how many hands (``counts``, uint32); ``fives``\n"
"(uint16) each hand's level. ``totals`` (int64, two a set, then two a\n"
"level): per set, its entries' counts weighed by the hands of the deck of a\n"
"higher level, and by those of the same level; per level, those two\n"
"numbers (a hand's totals). Read, not copied: they must not change.");

static PyTypeObject CountsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fivecard.play._dealer.Counts",
    .tp_basicsize = sizeof(Counts),
    .tp_dealloc = counts_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = counts_doc,
    .tp_methods = counts_methods,
    .tp_new = counts_new,
};

/* --- building the counts ---------------------------------------------------- */

PyDoc_STRVAR(subsets_doc, "subsets(rows, levels, k, n, offsets, out_levels, out_counts)\n--\n\n"
"Per set of ``k`` (1-4) positions of ``n``, by combinatorial number: the\n"
"levels of the ``rows`` (uint8, five ascending positions a row, in order of\n"
"their ``levels``, uint16) that hold it, and how many of each: into\n"
"``offsets`` (int64, C(n, k) + 1) and ``out_levels`` (uint16) and\n"
"``out_counts`` (uint32), each room for every row's C(5, k) sets. Returns the\n"
"number of entries. The GIL is released.");

static PyObject *subsets(PyObject *module, PyObject *args) {
    PyObject *rows_obj, *levels_obj, *offsets_obj, *out_levels_obj, *out_counts_obj;
    int k, n;
    if (!PyArg_ParseTuple(args, "OOiiOOO", &rows_obj, &levels_obj, &k, &n, &offsets_obj, &out_levels_obj,
                          &out_counts_obj))
        return NULL;
    if (k < 1 || k > 4) return PyErr_Format(PyExc_ValueError, "sets of 1 to 4 positions, not %d", k);
    if (n < 5 || n > MAX_DECK) return PyErr_Format(PyExc_ValueError, "a deck of 5 to %d positions, not %d", MAX_DECK, n);
    int64_t choose[MAX_DECK + 1][6];
    fill_choose(choose);
    Py_buffer rows, levels, offsets, out_levels, out_counts;
    Py_buffer *views[5] = {&rows, &levels, &offsets, &out_levels, &out_counts};
    int held = 0;
    PyObject *result = NULL;
    uint8_t *own = NULL;
    if (buffer_items(rows_obj, &rows, PyBUF_SIMPLE, 1, -1, "rows") < 0) goto done;
    held++;
    if (buffer_items(levels_obj, &levels, PyBUF_SIMPLE, 2, -1, "levels") < 0) goto done;
    held++;
    if (buffer_items(offsets_obj, &offsets, PyBUF_WRITABLE, 8, -1, "offsets") < 0) goto done;
    held++;
    if (buffer_items(out_levels_obj, &out_levels, PyBUF_WRITABLE, 2, -1, "out_levels") < 0) goto done;
    held++;
    if (buffer_items(out_counts_obj, &out_counts, PyBUF_WRITABLE, 4, -1, "out_counts") < 0) goto done;
    held++;
    Py_ssize_t count = levels.len / 2, sets = choose[n][k], per = choose[5][k];
    if (rows.len != count * 5 || levels.len % 2 || offsets.len != (sets + 1) * 8 ||
        out_levels.len < count * per * 2 || out_counts.len < count * per * 4) {
        PyErr_SetString(PyExc_ValueError, "rows: five uint8 a level; offsets: C(n, k) + 1; out_levels and "
                        "out_counts: room for C(5, k) a row");
        goto done;
    }
    for (int i = 2; i < 5; i++)
        if (buffer_apart(views[i], i == 2 ? "offsets" : i == 3 ? "out_levels" : "out_counts",
                  (const Py_buffer *const *)views, 5) < 0)
            goto done;
    /* the rows copied, then checked: their positions index the tables
     * while another thread may write to the caller's */
    uint8_t *r = PyMem_RawMalloc(rows.len ? rows.len : 1);
    if (!r) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(r, rows.buf, rows.len);
    own = r;
    const uint16_t *lv = levels.buf;
    for (Py_ssize_t h = 0; h < count; h++) {
        if (h && lv[h] < lv[h - 1]) {
            PyErr_SetString(PyExc_ValueError, "rows: in order of their levels");
            goto done;
        }
        for (int i = 0; i < 5; i++)
            if (r[h * 5 + i] >= n || (i && r[h * 5 + i] <= r[h * 5 + i - 1])) {
                PyErr_Format(PyExc_ValueError, "row %zd: five ascending positions below %d", h, n);
                goto done;
            }
    }
    /* each row's sets of k, by the positions' places in the row */
    int places[10][4], nplaces = 0;
    for (int mask = 0; mask < 32; mask++)
        if (__builtin_popcount(mask) == k) {
            int j = 0;
            for (int i = 0; i < 5; i++)
                if (mask >> i & 1) places[nplaces][j++] = i;
            nplaces++;
        }
    int64_t *start = PyMem_RawCalloc(sets + 1, sizeof(int64_t));
    if (!start) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *off = offsets.buf;
    uint16_t *ol = out_levels.buf;
    uint32_t *oc = out_counts.buf;
    Py_ssize_t entries = 0;
    Py_BEGIN_ALLOW_THREADS
    /* a counting sort of the (set, level) pairs by set, the levels staying in order */
    for (Py_ssize_t h = 0; h < count; h++)
        for (int p = 0; p < nplaces; p++) {
            int64_t number = 0;
            for (int j = 0; j < k; j++) number += choose[r[h * 5 + places[p][j]]][j + 1];
            start[number + 1]++;
        }
    for (Py_ssize_t s = 0; s < sets; s++) start[s + 1] += start[s];
    /* start[s] runs from the first place of set s to the first of s + 1
     * (the cursors are the kernel's own: the caller's offsets, written
     * meanwhile by another thread, are no write index) */
    for (Py_ssize_t h = 0; h < count; h++)
        for (int p = 0; p < nplaces; p++) {
            int64_t number = 0;
            for (int j = 0; j < k; j++) number += choose[r[h * 5 + places[p][j]]][j + 1];
            ol[start[number]++] = lv[h];
        }
    /* each set's run of a level: one entry; set s now ends where s + 1 began */
    for (Py_ssize_t s = 0; s < sets; s++) {
        off[s] = entries;
        for (int64_t i = s ? start[s - 1] : 0; i < start[s];) {
            uint16_t level = ol[i];
            int64_t j = i;
            while (j < start[s] && ol[j] == level) j++;
            ol[entries] = level;
            oc[entries] = (uint32_t)(j - i);
            entries++;
            i = j;
        }
    }
    off[sets] = entries;
    Py_END_ALLOW_THREADS
    PyMem_RawFree(start);
    result = PyLong_FromSsize_t(entries);
done:
    PyMem_RawFree(own);
    for (int i = 0; i < held; i++) PyBuffer_Release(views[i]);
    return result;
}

static PyMethodDef module_methods[] = {
    {"subsets", subsets, METH_VARARGS, subsets_doc},
    {NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "fivecard.play._dealer",
    "The compiled execution of the dealer game's sums.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__dealer(void) {
    if (PyType_Ready(&CountsType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CountsType);
    if (PyModule_AddObject(m, "Counts", (PyObject *)&CountsType) < 0) {
        Py_DECREF(&CountsType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
