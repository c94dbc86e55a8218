// The service form's buttons (PRODUCT.md "Services and projects"): the server keeps a draft a draft unless it is
// sent, keeps a service in moderation there, and sends any other back to moderation on a save; an admin's save keeps
// the state.

export type FormMode = 'owner' | 'admin';

/** Whether «Сохранить черновик» is offered: to the owner of a new service or of a draft. */
export const canSaveDraft = (mode: FormMode, status: string | undefined) => mode === 'owner' && (!status || status === 'draft');

/** The main button's words for who saves a service in which state. */
export function mainButtonLabel(mode: FormMode, status: string | undefined): string {
  if (mode === 'admin') return 'Сохранить';
  if (!status || status === 'draft') return 'Отправить на модерацию';
  return status === 'moderation' ? 'Сохранить' : 'Сохранить и отправить на модерацию';
}

/** The main button while a save runs: «Сохранение…» when it was pressed (an admin has only that one button). */
export const mainButtonText = (pressed: 'draft' | 'publish' | null, mode: FormMode, label: string) =>
  pressed && (pressed === 'publish' || mode === 'admin') ? 'Сохранение…' : label;
