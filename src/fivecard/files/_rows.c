/* fivecard.files._rows: rows of output joined from columns of pieces, in C.
 *
 * What fivecard.files.writers.matrix.join_columns does by numpy and
 * bytes.join (a grid of pieces, row after row), without a Python object
 * made per piece: the bytes of every row, each row's pieces in column order,
 * in one bytes object. Nothing here knows poker, nor what the pieces say.
 *
 * A column is one of: a bytes object (the same piece in every row); a
 * one-dimensional numpy array of objects, each a bytes object (a piece per
 * row, at any stride, from any byte); a two-dimensional array of one-byte
 * items (a row of bytes per row, each row's bytes contiguous, rows at any
 * stride). The GIL is held throughout: the pieces are Python objects.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

enum kind { CONSTANT, OBJECTS, MATRIX };

typedef struct {
    enum kind kind;
    Py_buffer view;        /* OBJECTS, MATRIX: the column's buffer */
    const char *constant;  /* CONSTANT */
    Py_ssize_t width;      /* CONSTANT, MATRIX: the bytes a row */
} Column;

static void release(Column *columns, Py_ssize_t count) {
    for (Py_ssize_t i = 0; i < count; i++)
        if (columns[i].kind != CONSTANT) PyBuffer_Release(&columns[i].view);
}

/* column i of `rows` rows taken from obj; -1 with an error and nothing held */
static int take_column(PyObject *obj, Py_ssize_t i, Py_ssize_t rows, Column *column) {
    if (PyBytes_Check(obj)) {
        column->kind = CONSTANT;
        column->constant = PyBytes_AS_STRING(obj);
        column->width = PyBytes_GET_SIZE(obj);
        return 0;
    }
    Py_buffer *view = &column->view;
    if (PyObject_GetBuffer(obj, view, PyBUF_STRIDES | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "column %zd: bytes, an array of bytes objects or a matrix of bytes", i);
        return -1;
    }
    const char *format = view->format ? view->format : "B";
    if (view->ndim == 1 && strcmp(format, "O") == 0 && view->itemsize == (Py_ssize_t)sizeof(PyObject *)) {
        column->kind = OBJECTS;
        if (view->shape[0] != rows) {
            PyErr_Format(PyExc_ValueError, "column %zd: %zd pieces for %zd rows", i, view->shape[0], rows);
            PyBuffer_Release(view);
            return -1;
        }
        return 0;
    }
    if (view->ndim == 2 && view->itemsize == 1 && (strcmp(format, "B") == 0 || strcmp(format, "b") == 0 ||
                                                   strcmp(format, "c") == 0 || strcmp(format, "1s") == 0)) {
        column->kind = MATRIX;
        column->width = view->shape[1];
        if (view->shape[0] != rows) {
            PyErr_Format(PyExc_ValueError, "column %zd: %zd rows of bytes for %zd rows", i, view->shape[0], rows);
            PyBuffer_Release(view);
            return -1;
        }
        if (column->width > 1 && view->strides[1] != 1) {
            PyErr_Format(PyExc_ValueError, "column %zd: each row's bytes one after another", i);
            PyBuffer_Release(view);
            return -1;
        }
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "column %zd: bytes, an array of bytes objects or a matrix of bytes", i);
    PyBuffer_Release(view);
    return -1;
}

/* the piece of a row, copied out rather than loaded as a pointer: a packed
 * record array's field of objects lies at any byte (a stride of 9 after a
 * one-byte field) */
static inline PyObject *piece_of(const Column *column, Py_ssize_t row) {
    PyObject *piece;
    memcpy(&piece, (char *)column->view.buf + row * column->view.strides[0], sizeof piece);
    return piece;
}

PyDoc_STRVAR(join_doc,
"join(columns, rows) -> bytes\n\n"
"Every row's pieces, in column order, row after row: ``columns`` a\n"
"sequence, each a bytes object (the same piece in every row), a\n"
"one-dimensional array of ``rows`` bytes objects, or a matrix of\n"
"``rows`` rows of one-byte items (each row's bytes contiguous).");

static PyObject *join(PyObject *self, PyObject *args) {
    PyObject *given;
    Py_ssize_t rows;
    if (!PyArg_ParseTuple(args, "On", &given, &rows)) return NULL;
    if (rows < 0) return PyErr_Format(PyExc_ValueError, "rows: 0 or more, not %zd", rows);
    PyObject *sequence = PySequence_Fast(given, "columns: a sequence");
    if (!sequence) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence);
    Column *columns = PyMem_Calloc(count ? count : 1, sizeof(Column));
    if (!columns) {
        Py_DECREF(sequence);
        return PyErr_NoMemory();
    }
    PyObject *out = NULL;
    Py_ssize_t taken = 0;
    for (; taken < count; taken++)
        if (take_column(PySequence_Fast_GET_ITEM(sequence, taken), taken, rows, &columns[taken]) < 0) goto done;

    /* the length: every piece checked to be bytes on the way */
    Py_ssize_t total = 0;
    for (Py_ssize_t c = 0; c < count; c++) {
        const Column *column = &columns[c];
        if (column->kind == OBJECTS) {
            for (Py_ssize_t r = 0; r < rows; r++) {
                PyObject *piece = piece_of(column, r);
                if (!piece || !PyBytes_Check(piece)) {
                    PyErr_Format(PyExc_TypeError, "column %zd, row %zd: a piece is bytes", c, r);
                    goto done;
                }
                if (PyBytes_GET_SIZE(piece) > PY_SSIZE_T_MAX - total) goto too_long;
                total += PyBytes_GET_SIZE(piece);
            }
        } else {
            if (column->width && rows > (PY_SSIZE_T_MAX - total) / column->width) goto too_long;
            total += column->width * rows;
        }
    }
    out = PyBytes_FromStringAndSize(NULL, total);
    if (!out) goto done;
    char *at = PyBytes_AS_STRING(out), *end = at + total;
    /* no pass over rows that have no bytes, however many (2**62 of nothing) */
    for (Py_ssize_t r = 0; total && r < rows; r++)
        for (Py_ssize_t c = 0; c < count; c++) {
            const Column *column = &columns[c];
            switch (column->kind) {
            case CONSTANT:
                memcpy(at, column->constant, column->width);
                at += column->width;
                break;
            case OBJECTS: {
                /* the GIL is held and no Python code has run since the pieces
                 * were measured; checked again all the same */
                PyObject *piece = piece_of(column, r);
                if (!piece || !PyBytes_Check(piece) || PyBytes_GET_SIZE(piece) > end - at) {
                    PyErr_SetString(PyExc_RuntimeError, "the pieces changed while they were joined");
                    goto done;
                }
                Py_ssize_t size = PyBytes_GET_SIZE(piece);
                memcpy(at, PyBytes_AS_STRING(piece), size);
                at += size;
                break;
            }
            case MATRIX:
                memcpy(at, (char *)column->view.buf + r * column->view.strides[0], column->width);
                at += column->width;
                break;
            }
        }
    if (at != end) PyErr_SetString(PyExc_RuntimeError, "the pieces changed while they were joined");
    goto done;
too_long:
    PyErr_SetString(PyExc_OverflowError, "the rows are too long to join");
done:
    release(columns, taken);
    PyMem_Free(columns);
    Py_DECREF(sequence);
    if (PyErr_Occurred()) {
        Py_XDECREF(out);
        return NULL;
    }
    return out;
}

static PyMethodDef methods[] = {
    {"join", join, METH_VARARGS, join_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "fivecard.files._rows",
    "Rows of output joined from columns of pieces (see fivecard.files.writers.matrix).", -1, methods,
};

PyMODINIT_FUNC PyInit__rows(void) { return PyModule_Create(&module); }
