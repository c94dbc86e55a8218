import { useCallback, useEffect, useRef, useState } from 'react';
import type { Dispute } from '#contract/disputes';
import { api } from '../../lib/api.ts';
import { onSocketEvent } from '../../lib/socket.ts';
import { toast } from '../../lib/toast-store.ts';
import { mergePages, withChat, withUnseen } from './rules.ts';

const PAGE_SIZE = 50;

/**
 * The disputes a person opened or answers, kept live: new_dispute replaces a dispute's chat and reads the list
 * again; get_counters carries a dispute's unseen count (SPEC §4).
 */
export function useMyDisputes(me: string) {
  const [list, setList] = useState<Dispute[]>([]);
  const [total, setTotal] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  // The pages shown so far: a live refresh reloads them all, so that «Показать ещё» is not undone by an event.
  const pages = useRef(1);
  const [more, setMore] = useState(false);

  const load = useCallback(
    (n = pages.current) =>
      Promise.all(
        Array.from({ length: n }, (_, i) => api.read('disputes.mine', { query: { limit: PAGE_SIZE, page: i + 1 } }, { fresh: true })),
      ).then(
        (answers) => {
          setList(mergePages(answers.map((a) => a.result)));
          setTotal(answers[0]!.total);
          pages.current = n;
          setFailed(false);
          setLoaded(true);
        },
        () => {
          // A failed «Показать ещё» keeps what is shown.
          if (n > pages.current) toast('Не удалось загрузить споры. Попробуйте ещё раз.');
          else setFailed(true);
          setLoaded(true);
        },
      ),
    [],
  );

  async function showMore() {
    setMore(true);
    await load(pages.current + 1);
    setMore(false);
  }

  useEffect(() => {
    void load();
    const offDispute = onSocketEvent('new_dispute', ({ chat }) => {
      setList((l) => withChat(l, chat));
      void load();
    });
    const offCounters = onSocketEvent('get_counters', (e) => {
      const n = e.chatTotalUnseen[me];
      const id = e.dispute_id;
      if (!id || typeof n !== 'number') return;
      setList((l) => withUnseen(l, id, n));
    });
    return () => {
      offDispute();
      offCounters();
    };
  }, [load, me]);

  return { list, setList, total, loaded, failed, more, showMore };
}
