/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A POST over a plain socket, sent as curl sends one: the body goes out on a thread of its own while the response is
 * read, so an answer that comes before the whole body (a 413) is read even when the server closes the connection
 * without taking the rest; it counts the body's bytes the socket took. Reactor Netty's client reports such a close
 * as premature instead of giving the answer.
 */
final class RawPost {

    /** The response, and how many bytes of the body the socket took before it came (or the connection closed). */
    record Answer(int status, Map<String, String> headers, String body, long bodyBytesSent) {}

    private static final int PIECE = 8192;

    private RawPost() {}

    /**
     * POSTs to {@code uri} on the loopback {@code port} with {@code headers} ({@code Name: value}) a body of
     * {@code size} bytes, {@code start} then spaces, with a Content-Length or in chunks ({@code chunked}).
     */
    static Answer send(int port, String uri, List<String> headers, byte[] start, long size, boolean chunked)
            throws IOException, InterruptedException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            StringBuilder head = new StringBuilder("POST " + uri + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
            headers.forEach(h -> head.append(h).append("\r\n"));
            head.append(chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + size)
                    .append("\r\n\r\n");
            AtomicLong sent = new AtomicLong();
            Thread writer = new Thread(() -> write(socket, head.toString(), start, size, chunked, sent));
            writer.start();
            Answer answer = read(socket.getInputStream(), sent);
            socket.close(); // stops the writer, if the server has not already
            writer.join(30_000);
            return new Answer(answer.status, answer.headers, answer.body, sent.get());
        }
    }

    private static void write(Socket socket, String head, byte[] start, long size, boolean chunked, AtomicLong sent) {
        try {
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            byte[] piece = new byte[PIECE];
            for (long at = 0; at < size; at += PIECE) {
                int n = (int) Math.min(PIECE, size - at);
                Arrays.fill(piece, (byte) ' ');
                if (at < start.length) {
                    System.arraycopy(start, (int) at, piece, 0, (int) Math.min(n, start.length - at));
                }
                if (chunked) {
                    out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                }
                out.write(piece, 0, n);
                if (chunked) {
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                sent.addAndGet(n);
            }
            if (chunked) {
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.flush();
        } catch (IOException e) {
            // the server closed the connection: the body is not wanted
        }
    }

    private static Answer read(InputStream in, AtomicLong sent) throws IOException {
        String status = line(in);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h = line(in); !h.isEmpty(); h = line(in)) {
            int colon = h.indexOf(':');
            headers.put(
                    h.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    h.substring(colon + 1).trim());
        }
        byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
        return new Answer(
                Integer.parseInt(status.split(" ")[1]), headers, new String(body, StandardCharsets.UTF_8), sent.get());
    }

    /** One line of a response's head, without its CR LF; an IOException when the connection closes first. */
    static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the connection closed in the response's head: " + line);
            }
            if (c != '\r') {
                line.write(c);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }
}
