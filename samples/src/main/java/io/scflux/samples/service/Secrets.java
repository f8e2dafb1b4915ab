/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The service's unguessable strings, from {@link SecureRandom}: its token, and its job ids, which name a job's routes
 * and output (ids of a clock and a counter let a client download other jobs' results by guessing). Drawing one may
 * read the system's entropy source: off the event loop.
 */
final class Secrets {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Secrets() {}

    /** 256 random bits in URL-safe base64 without padding: 43 characters of A-Z a-z 0-9 - _. */
    static String token() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(32));
    }

    /** 128 random bits as 32 lowercase hex digits: part of a file name, so one case only. */
    static String id() {
        return HexFormat.of().formatHex(bytes(16));
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }
}
