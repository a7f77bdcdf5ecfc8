"""What the checks against Apple's app-store-server-library share: a tally of named checks, and the
verification status a call ends with."""
from appstoreserverlibrary.signed_data_verifier import VerificationException, VerificationStatus


class Checks:
    """Counts checks; prints each failed one."""

    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failed += 1
            print("FAILED: " + what)

    def summary(self):
        return f"{self.passed} passed, {self.failed} failed"

    def exit_status(self):
        return 0 if self.failed == 0 else 1


def verification_status(call):
    """VerificationStatus.OK when `call` verifies, else the status Apple's verifier raised."""
    try:
        call()
        return VerificationStatus.OK
    except VerificationException as error:
        return error.status
