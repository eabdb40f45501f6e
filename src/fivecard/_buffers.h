/* fivecard/_buffers.h: how the compiled kernels (fivecard.core._kernel,
 * fivecard.play._solver, fivecard.play._dealer) take the buffers a caller
 * hands them, checked before a byte is read or written. Nothing here knows
 * poker, nor what a kernel does with the buffers.
 *
 * A buffer is taken C-contiguous, of whole items, aligned for them (a load
 * of a misaligned int32_t or int64_t is undefined in C; a numpy array made
 * with an offset, a memoryview sliced one byte in start anywhere), writable
 * where it is written; an output must share no byte with another argument
 * (its writes would change what the kernel reads, or has checked, as it
 * runs). A caller who writes to a buffer from another thread while a
 * kernel runs without the GIL is the kernels' concern: they copy, or check
 * where they read.
 */
#ifndef FIVECARD_BUFFERS_H
#define FIVECARD_BUFFERS_H

#include <Python.h>
#include <stdint.h>

/* obj's buffer into view (flags: PyBUF_SIMPLE or PyBUF_WRITABLE), of
 * `items` items of `itemsize` bytes (items < 0: any whole number of them);
 * -1 with a ValueError (what: the argument's name) and nothing held */
static inline int buffer_items(PyObject *obj, Py_buffer *view, int flags, Py_ssize_t itemsize, Py_ssize_t items,
                               const char *what) {
    if (PyObject_GetBuffer(obj, view, flags | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len % itemsize || (uintptr_t)view->buf % itemsize) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s: aligned items of %zd bytes", what, itemsize);
        return -1;
    }
    if (items >= 0 && view->len != items * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items of %zd bytes, not %zd bytes", what, items, itemsize, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* whether two buffers share a byte (a buffer of none: no) */
static inline int buffers_shared(const Py_buffer *a, const Py_buffer *b) {
    if (!a->buf || !b->buf || a->len <= 0 || b->len <= 0) return 0;
    uintptr_t x = (uintptr_t)a->buf, y = (uintptr_t)b->buf;
    return x < y + (uintptr_t)b->len && y < x + (uintptr_t)a->len;
}

/* -1 with a ValueError where the output `out` shares memory with one of
 * `others` (out itself among them is passed over) */
static inline int buffer_apart(const Py_buffer *out, const char *what, const Py_buffer *const *others, int count) {
    for (int i = 0; i < count; i++)
        if (others[i] != out && buffers_shared(out, others[i])) {
            PyErr_Format(PyExc_ValueError, "%s shares memory with another argument", what);
            return -1;
        }
    return 0;
}

#endif
