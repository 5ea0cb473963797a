import { Alert } from "./alert";
import { Button } from "./button";
import { EmptyState } from "./empty-state";

/** A list that could not be loaded: the reason and a retry button. */
export function LoadError({
  title,
  message,
  onRetry,
  retrying,
}: {
  title: string;
  message: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <div className="p-4 sm:p-6">
      <Alert
        tone="danger"
        title={title}
        action={
          <Button variant="secondary" size="sm" onClick={onRetry} loading={retrying}>
            Try again
          </Button>
        }
      >
        {message}
      </Alert>
    </div>
  );
}

/** A cursor page that is empty now (its rows went away): the way back to the first page. */
export function PagePastEnd({ noun, reason, onFirstPage }: { noun: string; reason: string; onFirstPage: () => void }) {
  return (
    <EmptyState
      title={`No more ${noun}`}
      description={`This page is empty now; ${noun} may have been ${reason}.`}
      action={
        <Button variant="secondary" onClick={onFirstPage}>
          Back to the first page
        </Button>
      }
    />
  );
}
