/* SPDX-License-Identifier: MIT */
/* Focus: the application's own I/O first. Class rules, written in the rule language of
 * doc/rules.md with templates that name a class, tell each (call, path) key, or a stack frame's
 * object, to be the application's ("app") or one of a few runtime classes: the dynamic loader,
 * system look-ups, the MPI runtime, calls on no file, the terminal. The shipped rules are
 * src/engine/focus.rules, built into the program. */
#ifndef IODFG_FOCUS_H
#define IODFG_FOCUS_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_focus;

/* The application's class: id 0, named "app" in the rules. */
#define IODFG_FOCUS_CLASS_APP 0
#define IODFG_FOCUS_APP_NAME "app"
/* At most this many classes, the application's included; a name has fewer than NAME_MAX bytes. */
#define IODFG_FOCUS_CLASSES_MAX 64
#define IODFG_FOCUS_NAME_MAX 48
/* The activity a runtime class's keys are folded into is this prefix and the class name. */
#define IODFG_FOCUS_PREFIX "runtime:"

/* The built-in class rules (the text of src/engine/focus.rules, embedded at build time). */
const char *iodfg_focus_default_text(void);
/* The user's class rules file to look for: $XDG_CONFIG_HOME/iodfg/focus.rules, else
 * $HOME/.config/iodfg/focus.rules. 0 with the path in buf, or -1 when neither variable is set
 * (or the path does not fit). Reads only the environment: whether the file exists is the
 * caller's to find out. */
int iodfg_focus_user_path(char *buf, size_t size);

/* Compile class rules (text NULL: the built-in ones; where names them in errors). Errors have
 * where, line and column, as for mapping rules. NULL with err. */
struct iodfg_focus *iodfg_focus_new(const char *text, size_t len, const char *where,
                                    struct iodfg_error *err);
void iodfg_focus_free(struct iodfg_focus *f);
/* Where the rules came from ("built-in focus.rules" or the file given); borrowed. */
const char *iodfg_focus_where(const struct iodfg_focus *f);

/* The classes of a log's keys. Initialise with _init, release with _fini; reusable. */
struct iodfg_focus_classes {
    uint32_t nkeys;
    uint8_t *class_of_key; /* nkeys entries: IODFG_FOCUS_CLASS_APP or a runtime class */
    uint32_t nclasses;     /* the application's included (>= 1) */
    char name[IODFG_FOCUS_CLASSES_MAX][IODFG_FOCUS_NAME_MAX]; /* name[0] = "app" */
    uint32_t limited;         /* keys whose class rule hit the PCRE2 match limit */
    unsigned long limit_line; /* the first such rule's line */
};
void iodfg_focus_classes_init(struct iodfg_focus_classes *c);
void iodfg_focus_classes_fini(struct iodfg_focus_classes *c);
/* Classify every key of log (regexes run once per key). Runtime classes are numbered from 1 in
 * the order their first key comes. -1 with err when out of memory, or when the rules' templates
 * give more than IODFG_FOCUS_CLASSES_MAX - 1 runtime classes or a name too long (err names the
 * rules and the line); out is then unchanged. */
int iodfg_focus_classify(const struct iodfg_focus *f, const struct iodfg_eventlog *log,
                         struct iodfg_focus_classes *out, struct iodfg_error *err);
/* The name of class cls ("app" for the application), "" when out of range. */
const char *iodfg_focus_class_name(const struct iodfg_focus_classes *c, uint32_t cls);
/* The id of the class called name, or -1 when there is none. */
int iodfg_focus_class_find(const struct iodfg_focus_classes *c, const char *name);

/* One key or object that belongs to no log; NULL fields count as "". kind is an enum
 * iodfg_path_kind. */
struct iodfg_focus_subject {
    const char *call, *path, *fs, *fstype, *scope, *layer;
    int kind;
};
/* The class name of k into name[size] ("app" for the application). 0, or -1 with err (out of
 * memory, a name too long). */
int iodfg_focus_classify_subject(const struct iodfg_focus *f, const struct iodfg_focus_subject *k,
                                 char *name, size_t size, struct iodfg_error *err);
/* The class of an object file (a stack frame's object, e.g. /usr/lib/x86_64-linux-gnu/libc.so.6):
 * a subject with an empty call, kind file, scope unknown and layer POSIX. 1 when it is the
 * application's, 0 when a runtime's (its class name in name[size] either way), -1 with err. */
int iodfg_focus_classify_object(const struct iodfg_focus *f, const char *path, char *name,
                                size_t size, struct iodfg_error *err);

#endif
