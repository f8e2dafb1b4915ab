/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.NullableColumn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values make_fixtures.py wrote into a fixture, from its {@code <name>.expected.tsv}: one line per key, values
 * tab-separated, {@code <NA>} for missing, {@code True}/{@code False}, floats as Python's repr, {@code NaN}.
 */
final class ExpectedValues {

    private final String name;
    private final Map<String, List<String>> lines = new HashMap<>();

    private ExpectedValues(String name, List<String> text) {
        this.name = name;
        for (String line : text) {
            String[] parts = line.split("\t", -1);
            lines.put(parts[0], Arrays.asList(parts).subList(1, parts.length));
        }
    }

    /** The expected values of fixture {@code name} (without {@code .h5ad}). */
    static ExpectedValues of(String name) {
        try {
            return new ExpectedValues(
                    name, Files.readAllLines(Fixtures.path(name + ".expected.tsv"), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<String> list(String key) {
        List<String> v = lines.get(key);
        assertNotNull(v, name + ".expected.tsv has no " + key);
        return v;
    }

    String one(String key) {
        List<String> v = list(key);
        assertEquals(1, v.size(), key);
        return v.get(0);
    }

    long number(String key) {
        return Long.parseLong(one(key));
    }

    /** The expected index, index name and columns (in order) of {@code frame}, and every column's values. */
    void assertFrame(String key, Frame frame) {
        String indexName = one(key + ".index_name");
        assertEquals("<NA>".equals(indexName) ? null : indexName, frame.indexName(), key + " index name");
        assertEquals(list(key + ".index"), List.of(frame.index()), key + " index");
        assertEquals(list(key + ".columns"), List.copyOf(frame.columns().keySet()), key + " column order");
        for (String column : frame.columns().keySet()) {
            assertColumn(key + ".col." + column, frame.column(column));
        }
    }

    /** The kind, dtype, codes, categories, mask and values written for one column. */
    void assertColumn(String key, Column column) {
        switch (one(key + ".kind")) {
            case "categorical" -> {
                CategoricalColumn c = assertInstance(CategoricalColumn.class, column, key);
                assertValues(key + ".categories", c.categories());
                assertArrayEquals(
                        list(key + ".codes").stream()
                                .mapToInt(Integer::parseInt)
                                .toArray(),
                        c.codes(),
                        key + " codes");
                assertEquals(one(key + ".code_dtype"), c.codeType().numpyName(), key + " code type");
                assertEquals(Boolean.parseBoolean(one(key + ".ordered").toLowerCase()), c.ordered(), key + " ordered");
            }
            case "nullable" -> {
                NullableColumn c = assertInstance(NullableColumn.class, column, key);
                assertEquals(one(key + ".dtype"), c.typeName(), key + " dtype");
                List<String> mask = list(key + ".mask");
                for (int i = 0; i < mask.size(); i++) {
                    assertEquals(Boolean.parseBoolean(mask.get(i).toLowerCase()), c.mask()[i], key + " mask " + i);
                }
            }
            default -> {
                ArrayColumn c = assertInstance(ArrayColumn.class, column, key);
                assertEquals(
                        numpyAsRead(one(key + ".dtype")), c.values().dtype().numpyName(), key + " dtype");
            }
        }
        List<String> values = list(key + ".values");
        assertEquals(values.size(), column.size(), key + " length");
        for (int i = 0; i < values.size(); i++) {
            assertValue(values.get(i), column.get(i), key + " row " + i);
        }
    }

    /** Shape, dtype and every value of an array written with describe_dense. */
    void assertArray(String key, DenseArray a) {
        assertArrayEquals(
                list(key + ".shape").stream().mapToLong(Long::parseLong).toArray(), a.shape(), key + " shape");
        assertEquals(numpyAsRead(one(key + ".dtype")), a.dtype().numpyName(), key + " dtype");
        assertValues(key + ".values", a);
    }

    /** The flat values of {@code a}, one by one. */
    void assertValues(String key, DenseArray a) {
        List<String> values = list(key);
        assertEquals(values.size(), a.size(), key + " size");
        for (int i = 0; i < values.size(); i++) {
            assertValue(values.get(i), a.get(i), key + " [" + i + "]");
        }
    }

    /** One value: strings equal, numbers equal exactly (NaN to NaN), bools as True/False, null as {@code <NA>}. */
    static void assertValue(String expected, Object actual, String where) {
        if ("<NA>".equals(expected)) {
            assertNull(actual, where);
        } else if (actual instanceof Float || actual instanceof Double) {
            double d = ((Number) actual).doubleValue();
            if ("NaN".equals(expected)) {
                assertTrue(Double.isNaN(d), where + ": expected NaN, got " + d);
            } else {
                assertEquals(Double.parseDouble(expected), d, 0.0, where);
            }
        } else if (actual instanceof Number n) {
            assertEquals(Long.parseLong(expected), n.longValue(), where);
        } else if (actual instanceof Boolean b) {
            assertEquals(expected, b ? "True" : "False", where);
        } else {
            assertEquals(expected, actual, where);
        }
    }

    /** numpy's dtype name as scflux holds it: jhdf reads float16 as float32. */
    static String numpyAsRead(String numpy) {
        return "float16".equals(numpy) ? "float32" : numpy;
    }

    private static <T> T assertInstance(Class<T> type, Object value, String where) {
        assertTrue(type.isInstance(value), where + ": expected a " + type.getSimpleName() + ", got " + value);
        return type.cast(value);
    }
}
