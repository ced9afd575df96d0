"""Stands in for jpush 3.3.9's jpush/common.py: the hosts of each zone, and the failures."""

ZONES = {
    "DEFAULT": {
        "PUSH": "https://api.jpush.cn/v3/",
        "REPORT": "https://report.jpush.cn/v3/",
        "DEVICE": "https://device.jpush.cn/v3/devices/",
        "ALIAS": "https://device.jpush.cn/v3/aliases/",
        "TAG": "https://device.jpush.cn/v3/tags/",
        "SCHEDULE": "https://api.jpush.cn/v3/schedules/",
        "ADMIN": "https://admin.jpush.cn/v1/",
    },
}


def get_url(key, zone="default"):
    return ZONES[zone.upper()][key.upper()]


class Unauthorized(Exception):
    pass


class JPushFailure(Exception):
    def __init__(self, status, error):
        super().__init__(f"{status}: {error}")
        self.status = status
        self.error_code = error.get("code")
        self.error = error.get("message")
