#pragma once

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QString>
#include <QTcpServer>
#include <QTimer>
#include <QVector>

// A small HTTP/1.1 server for the downloader tests: it listens on 127.0.0.1 on a port the
// system picks, serves fixed bodies by path (404 otherwise), answers "Range: bytes=N-" with
// 206 unless told to ignore it, sends bodies in throttled pieces so a test can cancel midway,
// and records what it was asked and how many body bytes it sent. It serves a bounded number
// of requests and shuts itself down after a minute, so a stuck test cannot keep it alive.
class LocalHttpServer : public QObject {
  Q_OBJECT

 public:
  struct Request {
    QByteArray path;
    QByteArray range;  // the Range header, empty when none
    int status = 0;
    qint64 bodyBytesSent = 0;
  };

  explicit LocalHttpServer(QObject* parent = nullptr);

  void addFile(const QByteArray& path, const QByteArray& body) { files_.insert(path, body); }
  void setHonourRange(bool honour) { honourRange_ = honour; }
  // Body bytes per write and the pause between writes.
  void setThrottle(int chunkBytes, int intervalMs);

  bool listen();
  quint16 port() const { return server_.serverPort(); }
  QString url(const QString& path) const;
  const QVector<Request>& requests() const { return requests_; }

 private:
  void onConnection();

  QTcpServer server_;
  QTimer lifetime_;
  QHash<QByteArray, QByteArray> files_;
  QVector<Request> requests_;
  bool honourRange_ = true;
  int chunkBytes_ = 1 << 16;
  int intervalMs_ = 0;
  int maxRequests_ = 32;
};
