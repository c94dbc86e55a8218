import type { ApiError } from '#contract/api';
import { Modal } from '../../components/ui/dialog.tsx';
import { NoteForm } from '../../components/ui/note-form.tsx';
import { REASON_MAX, reasonProblem, refusalText } from './decisions.ts';

export interface ReasonDialogProps {
  open: boolean;
  title: string;
  /** What happens, in a sentence (who will see the reason). */
  text: string;
  confirmLabel: string;
  /** Sends the decision; an error keeps the dialog open with the message. */
  onConfirm: (reason: string) => Promise<ApiError | undefined>;
  onClose: () => void;
}

/** A decision that needs a reason (reject, hide): the reason goes to the owner in a letter and on their page. */
export function ReasonDialog(props: ReasonDialogProps) {
  return (
    <Modal open={props.open} title={props.title} onClose={props.onClose}>
      {/* Mounted per opening, so every decision starts with an empty reason. */}
      <NoteForm
        text={props.text}
        label="Причина"
        placeholder="Например: в описании есть контакты для связи вне площадки"
        maxLength={REASON_MAX}
        confirmLabel={props.confirmLabel}
        tone="danger"
        check={reasonProblem}
        onConfirm={async (reason) => {
          const problem = await props.onConfirm(reason);
          return problem ? refusalText(problem) : null;
        }}
        onClose={props.onClose}
      />
    </Modal>
  );
}
