/* SPDX-License-Identifier: MIT */
/* The session's focus: the class rules, the classes of the keys, and the mapping overlay that
 * folds each runtime class's keys into one activity, kept as an incremental update (only the
 * keys whose activity changes go to the analysis). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/focus.h"
#include "iodfg/session.h"

#include "rules_priv.h"
#include "session_priv.h"

void iodfg_session_set_focus(struct iodfg_session *s, enum iodfg_focus_mode mode)
{
    s->focus = mode == IODFG_FOCUS_APP ? IODFG_FOCUS_APP : IODFG_FOCUS_ALL;
}

enum iodfg_focus_mode iodfg_session_focus(const struct iodfg_session *s)
{
    return (enum iodfg_focus_mode)s->focus;
}

int iodfg_session_set_focus_rules(struct iodfg_session *s, const char *text, size_t len,
                                  const char *where, struct iodfg_error *err)
{
    struct iodfg_focus *f = iodfg_focus_new(text, len, where, err);
    if (!f) {
        return -1;
    }
    iodfg_focus_free(s->focus_rules);
    s->focus_rules = f;
    s->classes_valid = 0;
    s->focus_dirty = 1;
    return 0;
}

const struct iodfg_focus *iodfg_session_focus_rules(struct iodfg_session *s,
                                                    struct iodfg_error *err)
{
    if (!s->focus_rules) {
        s->focus_rules = iodfg_focus_new(NULL, 0, NULL, err);
    }
    return s->focus_rules;
}

int iodfg_session_classify(struct iodfg_session *s, struct iodfg_error *err)
{
    if (s->classes_valid) {
        return 0;
    }
    const struct iodfg_focus *f = iodfg_session_focus_rules(s, err);
    if (!f || iodfg_focus_classify(f, s->log, &s->classes, err)) {
        return -1;
    }
    memset(s->class_act1, 0, sizeof(s->class_act1)); // the class ids are new
    s->classes_valid = 1;
    return 0;
}

const struct iodfg_focus_classes *iodfg_session_focus_classes(const struct iodfg_session *s)
{
    return s->classes_valid ? &s->classes : NULL;
}

const struct iodfg_mapping *iodfg_session_rules_mapping(const struct iodfg_session *s)
{
    return &s->base;
}

uint32_t iodfg_session_activity_class(const struct iodfg_session *s, uint32_t a)
{
    return s->classes_valid && a < s->act_cap && a < s->map.nactivities ? s->class_of_act[a]
                                                                        : IODFG_FOCUS_CLASS_APP;
}

uint32_t iodfg_session_fold_activity(const struct iodfg_session *s, uint32_t a)
{
    if (s->focus_built != IODFG_FOCUS_APP || !s->classes_valid) {
        return a;
    }
    uint32_t to = a; // the folded activity of a's keys, when every one of them is folded
    for (uint32_t k = 0; k < s->map.nkeys; k++) {
        if (s->base_act[k] != a) {
            continue;
        }
        uint32_t now = s->map.activity_of_key[k];
        if (now == a) {
            return a;
        }
        to = now;
    }
    return to;
}

const struct iodfg_session_focus_counts *iodfg_session_focus_counts(const struct iodfg_session *s)
{
    return &s->fcounts;
}

int session_focus_stale(const struct iodfg_session *s)
{
    return s->focus != s->focus_built || s->focus_dirty;
}

int session_focus_begin(struct iodfg_session *s, struct iodfg_error *err)
{
    size_t n = (size_t)s->nkeys + 1;
    if (!s->old_act && !(s->old_act = malloc(n * sizeof(*s->old_act)))) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (!s->base_act && !(s->base_act = malloc(n * sizeof(*s->base_act)))) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (uint32_t k = 0; k < s->nkeys; k++) {
        s->old_act[k] = k < s->map.nkeys ? s->map.activity_of_key[k] : IODFG_NO_ACTIVITY;
    }
    return 0;
}

static int pend(struct iodfg_session *s, uint32_t k)
{
    if (s->nmoved == s->cap_moved) {
        size_t cap = s->cap_moved ? 2 * s->cap_moved : 64;
        uint32_t *p = realloc(s->moved, cap * sizeof(*p));
        if (!p) {
            return -1;
        }
        s->moved = p;
        s->cap_moved = cap;
    }
    s->moved[s->nmoved++] = k;
    return 0;
}

/* The activity "runtime:CLASS" of class c in the session's mapping (interned once). */
static int class_activity(struct iodfg_session *s, uint32_t c, uint32_t *a)
{
    if (s->class_act1[c]) {
        *a = s->class_act1[c] - 1;
        return 0;
    }
    char name[sizeof(IODFG_FOCUS_PREFIX) + IODFG_FOCUS_NAME_MAX];
    int n = snprintf(name, sizeof(name), "%s%s", IODFG_FOCUS_PREFIX,
                     iodfg_focus_class_name(&s->classes, c));
    if (rules_mapping_intern(&s->map, name, (size_t)n, a)) {
        return -1;
    }
    s->class_act1[c] = *a + 1;
    return 0;
}

/* The class of each activity of the mapping: a folded one's class; else the application's when
 * one of its keys is, else the class of its first key. */
static int activity_classes(struct iodfg_session *s)
{
    uint32_t na = s->map.nactivities;
    if (na > s->act_cap) {
        uint32_t *p = realloc(s->class_of_act, ((size_t)na + 1) * sizeof(*p));
        if (!p) {
            return -1;
        }
        s->class_of_act = p;
        s->act_cap = na;
    }
    for (uint32_t a = 0; a < na; a++) {
        s->class_of_act[a] = UINT32_MAX;
    }
    for (uint32_t k = 0; k < s->nkeys; k++) {
        uint32_t a = s->base_act[k], c = s->classes.class_of_key[k];
        if (a != IODFG_NO_ACTIVITY && (s->class_of_act[a] == UINT32_MAX || c == 0)) {
            s->class_of_act[a] = c;
        }
    }
    for (uint32_t c = 1; c < s->classes.nclasses && c < IODFG_FOCUS_CLASSES_MAX; c++) {
        if (s->class_act1[c]) {
            s->class_of_act[s->class_act1[c] - 1] = c;
        }
    }
    for (uint32_t a = 0; a < na; a++) {
        s->class_of_act[a] = s->class_of_act[a] == UINT32_MAX ? 0 : s->class_of_act[a];
    }
    return 0;
}

/* Fold every mapped key of a runtime class into its class's activity. */
static int fold(struct iodfg_session *s, struct iodfg_error *err)
{
    if (iodfg_session_classify(s, err)) {
        return -1;
    }
    uint32_t *act = s->map.activity_of_key;
    for (uint32_t k = 0; k < s->nkeys; k++) {
        uint32_t c = s->classes.class_of_key[k];
        if (c != IODFG_FOCUS_CLASS_APP && act[k] != IODFG_NO_ACTIVITY &&
            class_activity(s, c, &act[k])) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    }
    return 0;
}

int session_focus_apply(struct iodfg_session *s, int applied, int *changed, struct iodfg_error *err)
{
    uint32_t *act = s->map.activity_of_key;
    if (applied) {
        memcpy(s->base_act, act, (size_t)s->nkeys * sizeof(*act));
    } else {
        memcpy(act, s->base_act, (size_t)s->nkeys * sizeof(*act));
    }
    if (s->focus == IODFG_FOCUS_APP && fold(s, err)) {
        memcpy(act, s->old_act, (size_t)s->nkeys * sizeof(*act)); // as before the call
        return -1;
    }
    *changed = 0;
    for (uint32_t k = 0; k < s->nkeys; k++) {
        if (act[k] != s->old_act[k]) {
            *changed = 1;
            if (pend(s, k)) {
                return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
            }
        }
    }
    if (s->classes_valid && activity_classes(s)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    s->base = s->map; // the same names and ids, each key's activity as its rule gives it
    s->base.activity_of_key = s->base_act;
    s->focus_built = s->focus;
    s->focus_dirty = 0;
    return 0;
}

void session_focus_count(struct iodfg_session *s)
{
    struct iodfg_session_focus_counts *k = &s->fcounts;
    memset(k, 0, sizeof(*k));
    if (s->focus_built != IODFG_FOCUS_APP || !s->classes_valid || !s->an) {
        return;
    }
    uint32_t na = s->map.nactivities;
    uint8_t *seen = calloc((size_t)na + 1, 1); // 1: some event folded, 2: some event kept
    for (uint32_t key = 0; key < s->nkeys; key++) {
        uint32_t a = s->base_act[key];
        uint64_t n = iodfg_analysis_key_events(s->an, key);
        if (a == IODFG_NO_ACTIVITY || n == 0) {
            continue;
        }
        int folded = s->map.activity_of_key[key] != a;
        k->events_folded += folded ? n : 0;
        k->keys_folded += folded;
        if (seen) {
            seen[a] |= folded ? 1 : 2;
            seen[s->map.activity_of_key[key]] |= 4;
        }
    }
    for (uint32_t a = 0; seen && a < na; a++) {
        k->activities_folded += seen[a] == 1; // all its events folded (and not a class itself)
    }
    for (uint32_t c = 1; seen && c < s->classes.nclasses; c++) {
        k->classes_shown += s->class_act1[c] && (seen[s->class_act1[c] - 1] & 4);
    }
    free(seen);
}

void session_focus_taken(struct iodfg_session *s)
{
    s->nmoved = 0;
}

void iodfg_session_set_changed_ratio(struct iodfg_session *s, double ratio)
{
    ratio = ratio > 1 ? ratio : IODFG_DIFF_CHANGED_RATIO;
    if (ratio != iodfg_session_changed_ratio(s)) {
        s->changed_ratio = ratio;
        s->groups_dirty = 1; // compare anew
    }
}

double iodfg_session_changed_ratio(const struct iodfg_session *s)
{
    return s->changed_ratio > 1 ? s->changed_ratio : IODFG_DIFF_CHANGED_RATIO;
}

void session_focus_fini(struct iodfg_session *s)
{
    iodfg_focus_free(s->focus_rules);
    iodfg_focus_classes_fini(&s->classes);
    free(s->base_act);
    free(s->old_act);
    free(s->class_of_act);
    free(s->moved);
}
