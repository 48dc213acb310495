/*
 * bench:generator's fast responder: an HTTP/1.1 keep-alive server on 127.0.0.1 (a free
 * port, printed as the ready line the bench reads) that answers every request with
 * "hi\n" (the echo workload's bytes), from one thread on epoll. It does no more per
 * request than find the end of the request's head and write the answer, so on one
 * core it answers faster than one core of a load generator asks: the generator, not
 * the server, is what the bench measures. Requests with a body are not expected
 * (the bench's tools send GET); pipelined requests are answered in order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_EVENTS 256
#define MAX_FD 65536
#define BUF 16384

static const char ANSWER[] = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nhi\n";

/* Per connection: how many bytes of "\r\n\r\n" the last read ended in (0-3). */
static unsigned char matched[MAX_FD];

static int count_heads(int fd, const char *data, ssize_t n) {
  static const char END[] = "\r\n\r\n";
  int heads = 0;
  unsigned char m = matched[fd];
  for (ssize_t i = 0; i < n; i++) {
    if (data[i] == END[m]) {
      if (++m == 4) { heads++; m = 0; }
    } else {
      m = data[i] == '\r' ? 1 : 0;
    }
  }
  matched[fd] = m;
  return heads;
}

int main(void) {
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK), .sin_port = 0 };
  if (bind(listener, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(listener, 1024) != 0) { perror("listen"); return 1; }
  socklen_t len = sizeof addr;
  getsockname(listener, (struct sockaddr *)&addr, &len);
  int ep = epoll_create1(0);
  struct epoll_event ev = { .events = EPOLLIN, .data.fd = listener };
  epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev);
  printf("{\"spawnbench\":\"ready\",\"port\":%d}\n", ntohs(addr.sin_port));
  fflush(stdout);

  static char in[BUF];
  static char out[BUF];
  const size_t answer_len = sizeof ANSWER - 1;
  struct epoll_event events[MAX_EVENTS];
  for (;;) {
    int ready = epoll_wait(ep, events, MAX_EVENTS, -1);
    if (ready < 0 && errno == EINTR) continue;
    for (int e = 0; e < ready; e++) {
      int fd = events[e].data.fd;
      if (fd == listener) {
        int conn;
        while ((conn = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          if (conn >= MAX_FD) { close(conn); continue; }
          setsockopt(conn, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          matched[conn] = 0;
          struct epoll_event cev = { .events = EPOLLIN, .data.fd = conn };
          epoll_ctl(ep, EPOLL_CTL_ADD, conn, &cev);
        }
        continue;
      }
      ssize_t n = read(fd, in, sizeof in);
      if (n <= 0) {
        if (n < 0 && errno == EAGAIN) continue;
        close(fd); /* closing removes it from the epoll set */
        continue;
      }
      int heads = count_heads(fd, in, n);
      while (heads > 0) {
        int batch = heads < (int)(sizeof out / answer_len) ? heads : (int)(sizeof out / answer_len);
        for (int i = 0; i < batch; i++) memcpy(out + i * answer_len, ANSWER, answer_len);
        /* A loopback socket's buffer takes a few answers whole; a short write drops the connection. */
        if (write(fd, out, batch * answer_len) != (ssize_t)(batch * answer_len)) { close(fd); break; }
        heads -= batch;
      }
    }
  }
}
