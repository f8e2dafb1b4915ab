/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * anndata's {@code var_names_make_unique} ({@code make_index_unique(index, join="-")}): the first of equal names keeps
 * it, the later ones get {@code -1}, {@code -2}... in order, skipping a suffixed name the index already holds.
 */
final class UniqueNames {

    private UniqueNames() {}

    /** {@code names} made unique (the same array when they already are; else a new one). */
    static String[] of(String[] names) {
        Set<String> seen = new HashSet<>(names.length * 2);
        boolean unique = true;
        for (String n : names) {
            unique &= seen.add(n);
        }
        if (unique) {
            return names;
        }
        // seen now holds every original name; later occurrences are renamed against it and what was added
        String[] out = names.clone();
        Set<String> first = new HashSet<>(names.length * 2);
        Map<String, Integer> counter = new HashMap<>();
        for (int i = 0; i < out.length; i++) {
            String v = names[i];
            if (first.add(v)) {
                continue;
            }
            int k = counter.getOrDefault(v, 0);
            String candidate;
            do {
                k++;
                candidate = v + "-" + k;
            } while (!seen.add(candidate));
            counter.put(v, k);
            out[i] = candidate;
        }
        return out;
    }
}
