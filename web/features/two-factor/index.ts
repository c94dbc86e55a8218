// The second factor (ADR 054): the settings card, the sign-in's code step and step-up's dialog.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).

export { TwoFactorCard } from './two-factor-card.tsx';
export { StepUpDialog } from './step-up-dialog.tsx';
export { withStepUp } from './step-up.ts';
export { CodeStep } from './code-step.tsx';
