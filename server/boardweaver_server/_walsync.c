/* boardweaver_server._walsync: a thread of our own that syncs the store's WAL file on request.
 *
 * The loop asks for a sync (`start`), goes on making the group's frames, and learns of the sync's end from an
 * eventfd it watches (`fileno`, then `take`). The thread runs no Python and never takes the GIL. After each sync
 * it keeps polling for the next request for `window` seconds (the loop's busy-poll window, `busypoll.py`),
 * offering its core to any other runnable thread at each turn (`sched_yield`); then it sleeps on a condition
 * variable until the next request. A busy room's next sync thus starts on a running thread, not on one woken
 * across cores (on a virtual machine, a wake-up through the host). bench/README.md, "Thirty-sixth session".
 *
 * Compiled by scripts/compile_modules.py beside the mypyc modules; store.py falls back to io_uring, Linux AIO or
 * the store's thread where it is missing (`SYNC_WITH`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    PyObject_HEAD
    int fd, efd, running;
    atomic_int request, stop, sleeping, result;
    atomic_llong window_ns, syncs, sleeps;
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
} SyncThread;

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *run(void *arg) {
    SyncThread *self = (SyncThread *)arg;
    long long last = 0;
    for (;;) {
        if (atomic_exchange(&self->request, 0)) {
            int failed = fdatasync(self->fd);
            atomic_store(&self->result, failed ? errno : 0);
            atomic_fetch_add(&self->syncs, 1);
            uint64_t one = 1;
            while (write(self->efd, &one, sizeof one) < 0 && errno == EINTR) {
            }
            last = now_ns();
            continue;
        }
        if (atomic_load(&self->stop)) {
            break;
        }
        if (now_ns() - last < atomic_load(&self->window_ns)) {
            sched_yield();
            continue;
        }
        pthread_mutex_lock(&self->mutex);
        atomic_store(&self->sleeping, 1);
        while (!atomic_load(&self->request) && !atomic_load(&self->stop)) {
            pthread_cond_wait(&self->cond, &self->mutex);
        }
        atomic_store(&self->sleeping, 0);
        pthread_mutex_unlock(&self->mutex);
        atomic_fetch_add(&self->sleeps, 1);
    }
    return NULL;
}

static void wake(SyncThread *self) {
    pthread_mutex_lock(&self->mutex);
    pthread_cond_signal(&self->cond);
    pthread_mutex_unlock(&self->mutex);
}

static int SyncThread_init(SyncThread *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"fd", NULL};
    int fd;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "i", names, &fd)) {
        return -1;
    }
    if (self->running) {
        PyErr_SetString(PyExc_RuntimeError, "this SyncThread is already running");
        return -1;
    }
    self->fd = fd;
    self->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (self->efd < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    pthread_mutex_init(&self->mutex, NULL);
    pthread_cond_init(&self->cond, NULL);
    /* the thread takes no signal: they stay the main thread's, where Python handles them */
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before);
    int error = pthread_create(&self->thread, NULL, run, self);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (error != 0) {
        close(self->efd);
        errno = error;
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    self->running = 1;
    return 0;
}

static PyObject *SyncThread_start(SyncThread *self, PyObject *arg) {
    double window = PyFloat_AsDouble(arg);
    if (window == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    if (!self->running) {
        PyErr_SetString(PyExc_RuntimeError, "this SyncThread is closed");
        return NULL;
    }
    atomic_store(&self->window_ns, window > 0 ? (long long)(window * 1e9) : 0);
    atomic_store(&self->request, 1);
    if (atomic_load(&self->sleeping)) {
        wake(self);
    }
    Py_RETURN_NONE;
}

static PyObject *SyncThread_take(SyncThread *self, PyObject *unused) {
    uint64_t count;
    if (!self->running) {
        PyErr_SetString(PyExc_RuntimeError, "this SyncThread is closed");
        return NULL;
    }
    if (read(self->efd, &count, sizeof count) < 0) {
        if (errno == EAGAIN) {
            Py_RETURN_NONE;
        }
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    return PyLong_FromLong(atomic_load(&self->result));
}

static void stop(SyncThread *self) {
    if (!self->running) {
        return;
    }
    self->running = 0;
    atomic_store(&self->stop, 1);
    wake(self);
    Py_BEGIN_ALLOW_THREADS
    pthread_join(self->thread, NULL);
    Py_END_ALLOW_THREADS
    close(self->efd);
    pthread_mutex_destroy(&self->mutex);
    pthread_cond_destroy(&self->cond);
}

static PyObject *SyncThread_close(SyncThread *self, PyObject *unused) {
    stop(self);
    Py_RETURN_NONE;
}

static void SyncThread_dealloc(SyncThread *self) {
    stop(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *SyncThread_fileno(SyncThread *self, void *unused) { return PyLong_FromLong(self->efd); }

static PyObject *SyncThread_fd(SyncThread *self, void *unused) { return PyLong_FromLong(self->fd); }

static PyObject *SyncThread_counts(SyncThread *self, void *unused) {
    return Py_BuildValue("(LL)", (long long)atomic_load(&self->syncs), (long long)atomic_load(&self->sleeps));
}

static PyMethodDef methods[] = {
    {"start", (PyCFunction)SyncThread_start, METH_O,
     "start(window): syncs the file now, then polls for the next request for `window` seconds before sleeping"},
    {"take", (PyCFunction)SyncThread_take, METH_NOARGS,
     "take() -> the errno of the sync that ended (0: it succeeded), None if none ended since the last take"},
    {"close", (PyCFunction)SyncThread_close, METH_NOARGS, "close(): ends the thread (after a sync under way)"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef getset[] = {
    {"fileno", (getter)SyncThread_fileno, NULL, "the eventfd readable once a sync ended", NULL},
    {"fd", (getter)SyncThread_fd, NULL, "the file it syncs", NULL},
    {"counts", (getter)SyncThread_counts, NULL, "(syncs made, times the thread fell asleep)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject SyncThreadType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "boardweaver_server._walsync.SyncThread",
    .tp_doc = "SyncThread(fd): a thread that fdatasyncs `fd` on request, told through an eventfd",
    .tp_basicsize = sizeof(SyncThread),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)SyncThread_init,
    .tp_dealloc = (destructor)SyncThread_dealloc,
    .tp_methods = methods,
    .tp_getset = getset,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_walsync", "The store's WAL synced by a thread of its own.",
                                    -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__walsync(void) {
    if (PyType_Ready(&SyncThreadType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    Py_INCREF(&SyncThreadType);
    if (PyModule_AddObject(m, "SyncThread", (PyObject *)&SyncThreadType) < 0) {
        Py_DECREF(&SyncThreadType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
