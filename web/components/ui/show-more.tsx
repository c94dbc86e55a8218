/** «Показать ещё» under a list that adds its next page in place; «Загружаем…», and no second click, while it loads. */
export function ShowMore({ onClick, busy = false }: { onClick: () => void; busy?: boolean }) {
  return (
    <p className="pager">
      <button type="button" className="btn btn--ghost" disabled={busy} onClick={onClick}>
        {busy ? 'Загружаем…' : 'Показать ещё'}
      </button>
    </p>
  );
}
