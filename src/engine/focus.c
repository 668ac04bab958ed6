/* SPDX-License-Identifier: MIT */
/* Focus classes: class rules compiled as mapping rules whose templates name a class, applied to
 * a log's keys or to one object path. */
#include "config.h"

#include "iodfg/focus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"

#include "rules_priv.h"

/* The built-in class rules: src/engine/focus.rules as a C string (made by make, engine.am). */
static const char default_text[] =
#include "src/engine/focus_rules.inc"
    ;

const char *iodfg_focus_default_text(void)
{
    return default_text;
}

struct iodfg_focus {
    struct iodfg_rules *rules; /* no rules: everything is the application's */
    char where[256];
};

int iodfg_focus_user_path(char *buf, size_t size)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && *xdg) {
        n = snprintf(buf, size, "%s/iodfg/focus.rules", xdg);
    } else if (home && *home) {
        n = snprintf(buf, size, "%s/.config/iodfg/focus.rules", home);
    } else {
        return -1;
    }
    return n > 0 && (size_t)n < size ? 0 : -1;
}

struct iodfg_focus *iodfg_focus_new(const char *text, size_t len, const char *where,
                                    struct iodfg_error *err)
{
    struct iodfg_focus *f = calloc(1, sizeof(*f));
    if (!f || !(f->rules = iodfg_rules_new())) {
        free(f);
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    if (!text) {
        text = iodfg_focus_default_text();
        len = strlen(text);
        where = where ? where : "built-in focus.rules";
    }
    snprintf(f->where, sizeof(f->where), "%s", where ? where : "focus rules");
    if (iodfg_rules_compile(f->rules, text, len, f->where, err)) {
        iodfg_focus_free(f);
        return NULL;
    }
    return f;
}

void iodfg_focus_free(struct iodfg_focus *f)
{
    if (f) {
        iodfg_rules_free(f->rules);
        free(f);
    }
}

const char *iodfg_focus_where(const struct iodfg_focus *f)
{
    return f->where;
}

void iodfg_focus_classes_init(struct iodfg_focus_classes *c)
{
    memset(c, 0, sizeof(*c));
    c->nclasses = 1;
    snprintf(c->name[0], sizeof(c->name[0]), "%s", IODFG_FOCUS_APP_NAME);
}

void iodfg_focus_classes_fini(struct iodfg_focus_classes *c)
{
    free(c->class_of_key);
    iodfg_focus_classes_init(c);
}

const char *iodfg_focus_class_name(const struct iodfg_focus_classes *c, uint32_t cls)
{
    return cls < c->nclasses ? c->name[cls] : "";
}

int iodfg_focus_class_find(const struct iodfg_focus_classes *c, const char *name)
{
    for (uint32_t i = 0; i < c->nclasses; i++) {
        if (strcmp(c->name[i], name) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* The class id of a rules' result name in c (added when new). -1 with err when it cannot be. */
static int class_of_name(const struct iodfg_focus *f, struct iodfg_focus_classes *c,
                         const char *name, struct iodfg_error *err)
{
    if (strcmp(name, IODFG_FOCUS_APP_NAME) == 0) {
        return IODFG_FOCUS_CLASS_APP;
    }
    int id = iodfg_focus_class_find(c, name);
    if (id >= 0) {
        return id;
    }
    if (strlen(name) >= IODFG_FOCUS_NAME_MAX) {
        iodfg_error_set(err, IODFG_E_LIMIT, "class name '%.40s...' is longer than %d bytes", name,
                        IODFG_FOCUS_NAME_MAX - 1);
        iodfg_error_at(err, f->where, 0, 0);
        return -1;
    }
    if (c->nclasses == IODFG_FOCUS_CLASSES_MAX) {
        iodfg_error_set(err, IODFG_E_LIMIT,
                        "the templates give more than %d runtime classes (the %dth: '%s')",
                        IODFG_FOCUS_CLASSES_MAX - 1, IODFG_FOCUS_CLASSES_MAX, name);
        iodfg_error_at(err, f->where, 0, 0);
        return -1;
    }
    snprintf(c->name[c->nclasses], sizeof(c->name[0]), "%s", name);
    return (int)c->nclasses++;
}

int iodfg_focus_classify(const struct iodfg_focus *f, const struct iodfg_eventlog *log,
                         struct iodfg_focus_classes *out, struct iodfg_error *err)
{
    uint32_t nk = iodfg_eventlog_key_count(log);
    struct iodfg_focus_classes c;
    iodfg_focus_classes_init(&c);
    c.nkeys = nk;
    c.class_of_key = calloc((size_t)nk + 1, 1);
    if (!c.class_of_key) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (iodfg_rules_count(f->rules) == 0) { // no class rules: all of it is the application's
        iodfg_focus_classes_fini(out);
        *out = c;
        return 0;
    }
    struct iodfg_mapping m;
    struct iodfg_rules_report rep;
    iodfg_rules_report_init(&rep);
    int rc = iodfg_mapping_init(&m, err);
    if (rc == 0) {
        rc = iodfg_rules_apply(f->rules, log, NULL, &m, &rep, err);
    }
    int *cls = rc == 0 ? malloc(((size_t)m.nactivities + 1) * sizeof(*cls)) : NULL;
    if (rc == 0 && !cls) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (uint32_t a = 0; rc == 0 && a < m.nactivities; a++) {
        cls[a] = -2; // not met yet: classes are numbered in the order of the keys
    }
    for (uint32_t k = 0; rc == 0 && k < nk; k++) {
        uint32_t a = m.activity_of_key[k];
        if (a == IODFG_NO_ACTIVITY) {
            continue;
        }
        if (cls[a] == -2) {
            cls[a] = class_of_name(f, &c, iodfg_mapping_name(&m, a), err);
        }
        if (cls[a] < 0) {
            rc = -1;
            break;
        }
        c.class_of_key[k] = (uint8_t)cls[a];
    }
    c.limited = rep.limited;
    c.limit_line = rep.limited ? rep.limit_line : 0;
    free(cls);
    iodfg_rules_report_fini(&rep);
    iodfg_mapping_fini(&m);
    if (rc) {
        iodfg_focus_classes_fini(&c);
        return -1;
    }
    iodfg_focus_classes_fini(out);
    *out = c;
    return 0;
}

int iodfg_focus_classify_subject(const struct iodfg_focus *f, const struct iodfg_focus_subject *k,
                                 char *name, size_t size, struct iodfg_error *err)
{
    if (iodfg_rules_count(f->rules) == 0) {
        snprintf(name, size, "%s", IODFG_FOCUS_APP_NAME);
        return 0;
    }
    struct rules_key rk = {k->call,  k->path,          k->fs, k->fstype, k->scope,
                           k->layer, (unsigned)k->kind, NULL};
    struct iodfg_buf out;
    iodfg_buf_init(&out);
    unsigned long line = 0;
    int limited = 0;
    int rc = rules_map_one(f->rules, &rk, &out, &line, &limited);
    if (rc < 0) {
        iodfg_buf_fini(&out);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (rc > 0 && out.len >= IODFG_FOCUS_NAME_MAX) {
        iodfg_error_set(err, IODFG_E_LIMIT, "class name '%.40s...' is longer than %d bytes",
                        out.data, IODFG_FOCUS_NAME_MAX - 1);
        iodfg_error_at(err, f->where, line, 0);
        iodfg_buf_fini(&out);
        return -1;
    }
    snprintf(name, size, "%s", rc > 0 ? out.data : IODFG_FOCUS_APP_NAME);
    iodfg_buf_fini(&out);
    return 0;
}

int iodfg_focus_classify_object(const struct iodfg_focus *f, const char *path, char *name,
                                size_t size, struct iodfg_error *err)
{
    struct iodfg_focus_subject k = {.call = "",
                                    .path = path,
                                    .fs = "",
                                    .fstype = "",
                                    .scope = iodfg_scope_name(IODFG_SCOPE_UNKNOWN),
                                    .layer = IODFG_LAYER_DEFAULT,
                                    .kind = IODFG_PATH_FILE};
    char buf[IODFG_FOCUS_NAME_MAX];
    if (iodfg_focus_classify_subject(f, &k, buf, sizeof(buf), err)) {
        return -1;
    }
    snprintf(name, size, "%s", buf);
    return strcmp(buf, IODFG_FOCUS_APP_NAME) == 0;
}
