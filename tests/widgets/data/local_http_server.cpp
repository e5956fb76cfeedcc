#include "local_http_server.h"

#include <QHostAddress>
#include <QPointer>
#include <QTcpSocket>
#include <memory>

LocalHttpServer::LocalHttpServer(QObject* parent) : QObject(parent) {
  connect(&server_, &QTcpServer::newConnection, this, &LocalHttpServer::onConnection);
  lifetime_.setSingleShot(true);
  lifetime_.setInterval(60000);
  connect(&lifetime_, &QTimer::timeout, this, [this] { server_.close(); });
}

void LocalHttpServer::setThrottle(int chunkBytes, int intervalMs) {
  chunkBytes_ = chunkBytes;
  intervalMs_ = intervalMs;
}

bool LocalHttpServer::listen() {
  if (!server_.listen(QHostAddress::LocalHost, 0)) return false;
  lifetime_.start();
  return true;
}

QString LocalHttpServer::url(const QString& path) const {
  return QStringLiteral("http://127.0.0.1:%1%2").arg(port()).arg(path);
}

void LocalHttpServer::onConnection() {
  while (QTcpSocket* socket = server_.nextPendingConnection()) {
    if (requests_.size() >= maxRequests_) {
      socket->abort();
      socket->deleteLater();
      continue;
    }
    auto* buffer = new QByteArray;
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    connect(socket, &QObject::destroyed, this, [buffer] { delete buffer; });
    connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
      buffer->append(socket->readAll());
      const int end = buffer->indexOf("\r\n\r\n");
      if (end < 0) return;
      disconnect(socket, &QTcpSocket::readyRead, this, nullptr);
      const QList<QByteArray> lines = buffer->left(end).split('\n');
      const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
      Request request;
      request.path = first.value(1);
      for (const QByteArray& line : lines.mid(1)) {
        const int colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed().toLower() == "range")
          request.range = line.mid(colon + 1).trimmed();
      }
      const int index = requests_.size();
      QByteArray body;
      QByteArray head;
      if (!files_.contains(request.path)) {
        request.status = 404;
        body = "not here\n";
        head = "HTTP/1.1 404 Not Found\r\n";
      } else {
        const QByteArray& file = files_.value(request.path);
        qint64 start = 0;
        if (honourRange_ && request.range.startsWith("bytes=") && request.range.endsWith('-'))
          start = request.range.mid(6, request.range.size() - 7).toLongLong();
        if (start >= file.size() && start > 0) {
          request.status = 416;
          head = "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */" +
                 QByteArray::number(file.size()) + "\r\n";
        } else if (start > 0) {
          request.status = 206;
          body = file.mid(start);
          head = "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes " +
                 QByteArray::number(start) + "-" + QByteArray::number(file.size() - 1) + "/" +
                 QByteArray::number(file.size()) + "\r\n";
        } else {
          request.status = 200;
          body = file;
          head = "HTTP/1.1 200 OK\r\n";
        }
      }
      head += "Content-Length: " + QByteArray::number(body.size()) +
              "\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n";
      requests_.push_back(request);
      socket->write(head);
      // The body goes out piece by piece; each piece is counted as it is handed over.
      auto* timer = new QTimer(socket);
      timer->setInterval(intervalMs_);
      auto offset = std::make_shared<qint64>(0);
      connect(timer, &QTimer::timeout, socket, [this, socket, timer, body, offset, index] {
        if (socket->state() != QAbstractSocket::ConnectedState) {
          timer->stop();
          return;
        }
        const QByteArray piece = body.mid(*offset, chunkBytes_);
        if (piece.isEmpty()) {
          timer->stop();
          socket->disconnectFromHost();
          return;
        }
        socket->write(piece);
        *offset += piece.size();
        requests_[index].bodyBytesSent += piece.size();
      });
      timer->start();
    });
  }
}
