import type { ApiError } from '#contract/api';
import { AUTH_MESSAGES } from '#contract/auth';
import { CATALOG_MESSAGES } from '#contract/catalog-messages';
import { AppLink } from '../../components/ui/app-link.tsx';
import { SwitchRoleButton } from './switch-role.tsx';

/** The server's refusal above the buttons, with the way out when there is one (confirm the email, switch role). */
export function FormProblem({ problem }: { problem: ApiError | null }) {
  if (!problem) return null;
  if (problem.message === AUTH_MESSAGES.mustConfirm) {
    return (
      <p className="form-error" role="alert">
        {problem.message}. <AppLink to="/verify">Подтвердить email</AppLink>
      </p>
    );
  }
  if (problem.message === CATALOG_MESSAGES.sellerOnly || problem.message === CATALOG_MESSAGES.customerOnly) {
    return (
      <div className="form-error items-role-problem" role="alert">
        <span>{problem.message}</span>
        <SwitchRoleButton role={problem.message === CATALOG_MESSAGES.sellerOnly ? 'seller' : 'customer'} />
      </div>
    );
  }
  return (
    <p className="form-error" role="alert">
      {problem.message}
    </p>
  );
}

/** Shown before the form when the email is not confirmed yet: publishing needs it (PRODUCT.md). */
export function ConfirmEmailNotice({ action }: { action: string }) {
  return (
    <p className="items-notice" role="note">
      Чтобы {action}, подтвердите email. <AppLink to="/verify">Отправить письмо ещё раз</AppLink>
    </p>
  );
}
