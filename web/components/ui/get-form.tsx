import type { ComponentProps } from 'react';
import { useNavigate, useResolvedPath } from 'react-router';

export interface GetFormProps extends Omit<ComponentProps<'form'>, 'method' | 'action'> {
  /** Where the query goes; the current route's address by default, as React Router's <Form>. */
  action?: string;
}

/**
 * A search form (`method="get"`) submitted as a navigation in the page: the fields (and the pressed button's name) as
 * the query string of `action`, what React Router's <Form> does for a GET. Ours because <Form> brings React
 * Router's submission code (useSubmit, form actions, encodings: 1 KiB gzip) into every page (issue 31). Without
 * scripts it is the plain form it renders.
 */
export function GetForm({ action, onSubmit, ...props }: GetFormProps) {
  const navigate = useNavigate();
  const path = useResolvedPath(action ?? '.').pathname;
  const submit: NonNullable<GetFormProps['onSubmit']> = (event) => {
    onSubmit?.(event);
    if (event.defaultPrevented) return;
    event.preventDefault();
    const submitter = (event.nativeEvent as globalThis.SubmitEvent).submitter;
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget, submitter)) if (typeof value === 'string') query.append(name, value);
    const search = query.toString();
    void navigate(search ? `${path}?${search}` : path);
  };
  return <form {...props} method="get" action={path} onSubmit={submit} />;
}
