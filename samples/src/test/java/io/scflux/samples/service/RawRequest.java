package io.scflux.samples.service;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Bytes sent as they are over a plain socket to the loopback {@code port}, and the response read to the end of the
 * connection: what Reactor Netty's client would not send (a URI with {@code %3F} as it is, garbage, a header over
 * Netty's limit). The caller writes {@code Connection: close} when it wants the connection to end with the response.
 */
final class RawRequest {

    /** The response: status, headers (names in lower case), body. */
    record Answer(int status, Map<String, String> headers, String body) {
    }

    private RawRequest() {
    }

    /** Sends {@code bytes} and reads the response until the server closes the connection. */
    static Answer send(int port, byte[] bytes) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            return parse(readAll(socket.getInputStream()));
        }
    }

    /** Sends {@code GET uri} with {@code headers} ({@code Name: value}), the connection closed after the answer. */
    static Answer get(int port, String uri, String... headers) throws IOException {
        StringBuilder head = new StringBuilder("GET " + uri + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
        for (String h : headers) {
            head.append(h).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        return send(port, head.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            in.transferTo(out);
        } catch (SocketException e) {
            // a reset after the response: what came before it is the answer
        }
        return out.toByteArray();
    }

    private static Answer parse(byte[] response) throws IOException {
        String text = new String(response, StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no response head in " + response.length + " bytes: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).trim());
        }
        return new Answer(Integer.parseInt(lines[0].split(" ")[1]), headers, text.substring(end + 4));
    }
}
