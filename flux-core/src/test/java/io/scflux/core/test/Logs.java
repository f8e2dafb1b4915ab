/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the code under test logs through SLF4J while an action runs, line by line: the tests' binding, slf4j-simple,
 * prints each line on {@code System.err} as it is then (the module's test {@code simplelogger.properties} says so),
 * which is swapped here for a buffer. Lines any thread prints meanwhile are caught too; lines below the level set
 * there (info) are not printed.
 */
public final class Logs {

    private Logs() {}

    /** The lines logged while {@code action} ran. */
    public static List<String> during(Runnable action) {
        PrintStream err = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(err);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    /** Of {@link #during}'s lines, those that contain {@code text}. */
    public static List<String> during(Runnable action, String text) {
        return during(action).stream().filter(line -> line.contains(text)).toList();
    }
}
