import { useCallback, useEffect, useState } from 'react';
import type { Message } from '#contract/chat';
import { MESSAGE_PAGE_SIZE } from '#contract/constants';
import { api } from '../../lib/api.ts';
import { onSocketEvent } from '../../lib/socket.ts';
import { Composer, MessageLog } from '../chat/index.ts';

// A dispute's chat: the chat feature's message log and composer over this one chat's messages. Members read and
// write through the chat API; an admin who has not joined yet reads it through the admin API (`readOnly`). Its
// parent keys it by chat (and by reader), so it starts afresh.

export function DisputeThread({ chatId, me, readOnly = false }: { chatId: string; me: string; readOnly?: boolean }) {
  const [messages, setMessages] = useState<Message[]>([]);
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(true);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState(false);

  const markSeen = useCallback(
    (list: Message[]) => {
      if (readOnly) return;
      const newest = list.find((m) => m.sender._id !== me && !m.seen);
      if (newest) void api.write('chat.markSeen', { params: { id: newest._id }, body: { seen: true } });
    },
    [me, readOnly],
  );

  const fetchPage = useCallback(
    (n: number) =>
      readOnly
        ? api.read('admin.chats.messages', { params: { id: chatId }, query: { page: n, limit: MESSAGE_PAGE_SIZE } }, { fresh: true })
        : api.read('chat.messages', { params: { chat_id: chatId }, query: { page: n, limit: MESSAGE_PAGE_SIZE, chat_id: chatId } }, { fresh: true }),
    [chatId, readOnly],
  );

  const received = useCallback((n: number, result: Message[]) => {
    setMessages((list) => [...list, ...result.filter((m) => !list.some((k) => k._id === m._id))]);
    setPage(n);
    setHasMore(result.length === MESSAGE_PAGE_SIZE);
    setLoading(false);
  }, []);
  const failed = useCallback(() => {
    setError(true);
    setHasMore(false);
    setLoading(false);
  }, []);

  useEffect(() => {
    let live = true;
    fetchPage(1).then(
      (res) => {
        if (!live) return;
        received(1, res.result);
        markSeen(res.result);
      },
      () => live && failed(),
    );
    // A new message of this chat goes on top, and is marked seen while the thread is open.
    const off = onSocketEvent('new_message', ({ chat, newMessage }) => {
      if (chat._id !== chatId) return;
      setMessages((list) => (list.some((m) => m._id === newMessage._id) ? list : [newMessage, ...list]));
      if (newMessage.sender._id !== me) markSeen([newMessage]);
    });
    return () => {
      live = false;
      off();
    };
  }, [chatId, me, fetchPage, received, failed, markSeen]);

  function loadMore() {
    if (loading || !hasMore) return;
    setLoading(true);
    fetchPage(page + 1).then((res) => received(page + 1, res.result), failed);
  }

  return (
    <div className="dispute-thread" data-testid="dispute-thread">
      <MessageLog messages={messages} me={me} hasMore={hasMore} loading={loading} error={error} onLoadMore={loadMore} empty="Сообщений пока нет." />
      {!readOnly && (
        <Composer
          target={{ chat_id: chatId }}
          onSent={(m) => setMessages((list) => (list.some((k) => k._id === m._id) ? list : [m, ...list]))}
        />
      )}
    </div>
  );
}
