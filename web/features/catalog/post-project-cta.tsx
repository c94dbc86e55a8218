import { AppLink } from '../../components/ui/app-link.tsx';
import { useShell } from '../../lib/use-shell.ts';
import { POST_PROJECT_PATH } from '../../lib/post-project.ts';

/**
 * A buyer's invitation to post a project (issue 25: nothing said how), above the projects' list and on a signed-in
 * buyer's home. Not for a seller at work: they answer projects.
 */
export function PostProjectCta({ text }: { text: string }) {
  const { user } = useShell();
  if (user?.active_role === 'seller') return null;
  return (
    <div className="post-project" data-testid="post-project">
      <p className="post-project__text">{text}</p>
      <AppLink to={POST_PROJECT_PATH} className="btn btn--primary post-project__action">
        Разместить проект
      </AppLink>
    </div>
  );
}
