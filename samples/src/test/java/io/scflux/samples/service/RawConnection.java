/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A plain socket to the service on the loopback, to send what no HTTP client sends (nothing at all, a head a byte at a
 * time, a line Netty cannot decode) and to see when the server closes the connection.
 */
final class RawConnection implements AutoCloseable {

    /** A response: status, headers (names in lower case) and body, read by its Content-Length. */
    record Answer(int status, Map<String, String> headers, String body) {}

    private final Socket socket;
    private final InputStream in;

    /** A connection to {@code port}, whose reads wait at most {@code patience}. */
    RawConnection(int port, Duration patience) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout((int) patience.toMillis());
        in = socket.getInputStream();
    }

    /** Sends {@code text} as ISO-8859-1 bytes. */
    RawConnection send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return this;
    }

    /** Reads one response. */
    Answer read() throws IOException {
        String status = line();
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            headers.put(
                    h.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    h.substring(colon + 1).trim());
        }
        byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
        return new Answer(Integer.parseInt(status.split(" ")[1]), headers, new String(body, StandardCharsets.UTF_8));
    }

    /**
     * Whether the server has closed the connection (end of stream, or reset) before the patience ran out, discarding
     * whatever it sent before.
     */
    boolean closedByServer() throws IOException {
        try {
            while (in.read() >= 0) {
                // a response before the close: not what is asked
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // reset
        }
    }

    private String line() throws IOException {
        return RawPost.line(in);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
